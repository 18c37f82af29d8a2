/**
 * The reality check interrupts play, on real actors: the session machine (auth, with its
 * reality check child) and the game page run side by side in one system, as the app runs them; the
 * calls are doubles and the reality check's timer runs on a simulated clock. While the reminder
 * shows, the page is paused (the view shows no frame); "Continue playing" brings the same game back
 * without a new launch; a reminder that shows during the launch pauses the frame on arrival; "Sign
 * out" keeps play paused while the session ends.
 */
import { describe, expect, it } from "vitest"
import {
  type ActorRefFrom,
  createActor,
  createMachine,
  fromCallback,
  fromPromise,
  SimulatedClock,
} from "xstate"
import { type Account, authMachine } from "../../../machines/auth.machine.ts"
import { fixtureAccount, fixtureUser } from "../../../machines/flowFixtures.ts"
import { fixtureCatalogue } from "../../../machines/games/fixtures.ts"
import { GamePageMessages, gamePageMachine } from "../../../machines/games/gamePage.machine.ts"
import {
  type RealityCheckSettings,
  realityCheckMachine,
} from "../../../machines/profile/realityCheck.machine.ts"
import type { GamesAndCategories, LaunchPayload, LaunchResponse } from "../../../services/game-service.ts"
import type { AuthStatus } from "../../../services/user-service.ts"
import { controlled, settle } from "../account/doubles.ts"

const MINUTE = 60_000
/** Signed in at 0 with a reminder every 15 minutes: the first one is due at 15:00. */
const settings: RealityCheckSettings = { minutes: 15, signedInAt: 0, now: 0 }
const launched: LaunchResponse = { url: "/studio/play/abc", demo: false, currency: "EUR" }

const start = async () => {
  const check = controlled<AuthStatus, unknown>()
  const load = controlled<Account, unknown>()
  const signOut = controlled<void, unknown>()
  const catalogue = controlled<GamesAndCategories, string>()
  const launch = controlled<LaunchResponse, LaunchPayload>()
  const clock = new SimulatedClock()
  const auth = authMachine.provide({
    actors: {
      checkSession: check.logic,
      loadAccount: load.logic,
      signOut: signOut.logic,
      loadRealityCheck: fromPromise(async () => {}),
      realityCheck: realityCheckMachine.provide({
        actors: { loadSettings: fromPromise(async () => settings) },
      }),
      pushEvents: fromCallback(() => () => {}),
    },
    actions: {
      navigateHome: () => {},
      showLoading: () => {},
      hideLoading: () => {},
      notifyError: () => {},
      rememberUser: () => {},
      forgetUser: () => {},
    },
  })
  const game = gamePageMachine.provide({
    actors: { catalogue: catalogue.logic, launch: launch.logic },
    actions: { askForLogin: () => {}, recheckSession: () => {} },
  })
  // The session actor first (systemId "auth", as the shell starts it), then the page.
  const host = createMachine({
    invoke: [
      { id: "auth", systemId: "auth", src: auth },
      {
        id: "game",
        src: game,
        input: { gameId: "game-0", session: "signedIn", currency: "EUR", platform: "desktop", lang: "en" },
      },
    ],
  })
  const root = createActor(host, { clock }).start()
  const session = root.system.get("auth") as ActorRefFrom<typeof authMachine>
  const page = root.getSnapshot().children.game as ActorRefFrom<typeof gamePageMachine>
  check.last().resolve({ isAuthenticated: true, user: { ...fixtureUser, confirmed: true } })
  await settle()
  load.last().resolve(fixtureAccount)
  catalogue.last().resolve(fixtureCatalogue)
  await settle()
  const realityCheck = () => {
    const child = session.getSnapshot().children.realityCheck
    if (child === undefined) throw new Error("the reality check is not running")
    return child as ActorRefFrom<typeof realityCheckMachine>
  }
  expect(realityCheck().getSnapshot().value).toBe("waiting")
  return { root, session, page, launch, signOut, clock, realityCheck }
}

describe("the reality check on the game page", () => {
  it("pauses play while the reminder shows; Continue playing brings the same game back", async () => {
    const { page, launch, clock, realityCheck } = await start()
    launch.last().resolve(launched)
    await settle()
    // The studio's page says it is there with its first balance.
    expect(page.getSnapshot().matches({ playing: "loading" })).toBe(true)
    page.send({ type: "FRAME", message: { type: "balance" } })
    expect(page.getSnapshot().matches({ playing: "frame" })).toBe(true)

    clock.increment(15 * MINUTE - 1)
    expect(page.getSnapshot().matches({ playing: "frame" })).toBe(true)
    clock.increment(1)
    expect(realityCheck().getSnapshot().value).toEqual({ reminding: "shown" })
    expect(page.getSnapshot().matches({ playing: "paused" })).toBe(true)
    expect(page.getSnapshot().context.paused).toBe(true)
    // A low balance said by the frame a moment before it went away does not lift the pause.
    page.send({ type: "FRAME", message: { type: "insufficientFunds" } })
    expect(page.getSnapshot().matches({ playing: "paused" })).toBe(true)

    realityCheck().send({ type: "CONTINUE", at: 15 * MINUTE })
    expect(page.getSnapshot().matches({ playing: "loading" })).toBe(true)
    expect(page.getSnapshot().context.paused).toBe(false)
    page.send({ type: "FRAME", message: { type: "balance" } })
    expect(page.getSnapshot().matches({ playing: "frame" })).toBe(true)
    // The round state lives on the server: the same session's frame is loaded again, no new launch.
    expect(page.getSnapshot().context.launch).toEqual(launched)
    expect(launch.calls).toHaveLength(1)

    // And again at 30:00.
    clock.increment(15 * MINUTE)
    expect(page.getSnapshot().matches({ playing: "paused" })).toBe(true)
    expect(GamePageMessages.paused).toBe("Play is paused for your reality check.")
  })

  it("a reminder during the launch: the frame comes up paused", async () => {
    const { page, launch, clock, realityCheck } = await start()
    expect(page.getSnapshot().value).toBe("launching")
    clock.increment(15 * MINUTE)
    expect(page.getSnapshot().value).toBe("launching")
    launch.last().resolve(launched)
    await settle()
    expect(page.getSnapshot().matches({ playing: "paused" })).toBe(true)
    realityCheck().send({ type: "CONTINUE", at: 15 * MINUTE })
    expect(page.getSnapshot().matches({ playing: "loading" })).toBe(true)
  })

  it("Sign out from the reminder: play stays paused while the session ends", async () => {
    const { session, page, launch, signOut, clock, realityCheck } = await start()
    launch.last().resolve(launched)
    await settle()
    clock.increment(15 * MINUTE)
    expect(page.getSnapshot().matches({ playing: "paused" })).toBe(true)

    realityCheck().send({ type: "SIGN_OUT" })
    expect(session.getSnapshot().value).toBe("signingOut")
    expect(session.getSnapshot().children.realityCheck).toBeUndefined()
    expect(page.getSnapshot().matches({ playing: "paused" })).toBe(true)

    signOut.last().resolve()
    await settle()
    expect(session.getSnapshot().value).toBe("anonymous")
    // No reminder any more; the games area then tells the page the session ended (real money → login).
    expect(page.getSnapshot().context.paused).toBe(false)
    page.send({ type: "SESSION", status: "anonymous" })
    expect(page.getSnapshot().value).toBe("needsLogin")
  })
})
