/**
 * The profile area with the shell and the session, on real actors with controlled doubles: a visitor
 * gets the login modal and then the tab asked for; switching tabs keeps the area and restarts only
 * the tab; what the tabs report reaches the shell in order (self-exclusion: home, then the session
 * re-checked and anonymous); leaving /profile stops the area; the session verifies itself when the
 * page is visible again; the reality check hears of changed settings.
 */
import { describe, expect, it } from "vitest"
import { type ActorRefFrom, createActor, createMachine, fromPromise, waitFor } from "xstate"
import { type Account, authMachine } from "../../../machines/auth.machine.ts"
import {
  fixtureAccount,
  fixtureCurrencies,
  fixtureSiteConfig,
  fixtureUser,
} from "../../../machines/flowFixtures.ts"
import { type AccountFlow, modalsMachine } from "../../../machines/modals.machine.ts"
import { fixtureResponsibleGaming } from "../../../machines/profile/fixtures.ts"
import { profileAreaMachine } from "../../../machines/profile/profileArea.machine.ts"
import { type LoadedForm, profileFormMachine } from "../../../machines/profile/profileForm.machine.ts"
import {
  type RealityCheckSettings,
  realityCheckMachine,
} from "../../../machines/profile/realityCheck.machine.ts"
import {
  type LoadedSettings,
  responsibleGamingMachine,
} from "../../../machines/profile/responsibleGaming.machine.ts"
import { selfExclusionMachine } from "../../../machines/profile/selfExclusion.machine.ts"
import { sessionsMachine } from "../../../machines/profile/sessions.machine.ts"
import { type BootData, shellMachine } from "../../../machines/shell.machine.ts"
import type { SelfExclusionPeriod } from "../../../services/profile-rules.ts"
import type { PlayerSession } from "../../../services/profile-service.ts"
import type { AuthStatus } from "../../../services/user-service.ts"
import { controlled, settle } from "../account/doubles.ts"

const boot: BootData = {
  ip: { country: "Malta", isoCode: "MT" },
  restricted: ["US"],
  siteConfig: fixtureSiteConfig,
  currencies: fixtureCurrencies,
}

describe("profile area under the shell", () => {
  const makeShell = (path: string) => {
    const bootCall = controlled<BootData, unknown>()
    const check = controlled<AuthStatus, unknown>()
    const load = controlled<Account, unknown>()
    const pushed: Array<string> = []
    // The tabs' first calls: how many times each tab machine started.
    const generalLoads = controlled<LoadedForm, unknown>()
    const sessionLists = controlled<ReadonlyArray<PlayerSession>, unknown>()
    const settingsLoads = controlled<LoadedSettings, unknown>()
    const exclude = controlled<{ period: SelfExclusionPeriod; until: string | null }, SelfExclusionPeriod>()
    const shell = createActor(
      shellMachine.provide({
        actors: {
          boot: bootCall.logic,
          loadProfileArea: fromPromise<void>(async () => {}),
          profileArea: profileAreaMachine.provide({
            actors: {
              general: profileFormMachine.provide({ actors: { load: generalLoads.logic } }),
              sessions: sessionsMachine.provide({ actors: { list: sessionLists.logic } }),
              responsibleGaming: responsibleGamingMachine.provide({
                actors: {
                  load: settingsLoads.logic,
                  selfExclusion: selfExclusionMachine.provide({
                    actors: { exclude: exclude.logic },
                    actions: { toast: () => {} },
                  }),
                },
              }),
            },
          }),
          auth: authMachine.provide({
            actors: {
              checkSession: check.logic,
              loadAccount: load.logic,
              loadRealityCheck: controlled<void, unknown>().logic,
            },
          }),
          modals: modalsMachine.provide({ actors: { loadFlow: controlled<void, AccountFlow>().logic } }),
        },
        actions: {
          pushHistory: (_, params) => pushed.push(params.path),
          setTitle: () => {},
          clearModalQuery: () => {},
        },
      }),
      { input: { path, search: "" } },
    ).start()
    return { shell, bootCall, check, load, pushed, generalLoads, sessionLists, settingsLoads, exclude }
  }

  type Made = ReturnType<typeof makeShell>
  const areaOf = (made: Made) =>
    made.shell.getSnapshot().children.profileArea as ActorRefFrom<typeof profileAreaMachine> | undefined

  const ready = async (made: Made, status: AuthStatus) => {
    made.bootCall.last().resolve(boot)
    await waitFor(made.shell, (s) => s.matches({ ready: { profile: "active" } }))
    made.check.last().resolve(status)
    await settle()
  }

  it("asks a visitor to log in, then opens the tab they asked for", async () => {
    const made = makeShell("/profile/security")
    await ready(made, { isAuthenticated: false, user: null })
    const a = areaOf(made)
    expect(a?.getSnapshot().value).toBe("signedOut")
    const modals = made.shell.system.get("modals") as ActorRefFrom<typeof modalsMachine>
    expect(modals.getSnapshot().matches("login")).toBe(true)
    // The player signs in through the modal: the shell hears it, the session is authenticated.
    made.shell.send({ type: "SIGNED_IN", user: fixtureUser })
    await settle()
    expect(a?.getSnapshot().matches({ open: "security" })).toBe(true)
    expect(a?.getSnapshot().children.security).toBeDefined()
  })

  it("switches tabs without starting the area over; the same tab is not restarted", async () => {
    const made = makeShell("/profile")
    await ready(made, { isAuthenticated: true, user: fixtureUser })
    const a = areaOf(made)
    expect(a?.getSnapshot().matches({ open: "general" })).toBe(true)
    expect(made.generalLoads.calls).toHaveLength(1)
    made.shell.send({ type: "NAVIGATE", path: "/profile/sessions" })
    expect(areaOf(made)).toBe(a)
    expect(a?.getSnapshot().matches({ open: "sessions" })).toBe(true)
    // The general tab's machine was stopped: its call aborted.
    expect(made.generalLoads.last().signal.aborted).toBe(true)
    made.shell.send({ type: "NAVIGATE", path: "/profile/sessions/" })
    expect(made.sessionLists.calls).toHaveLength(1)
    made.shell.send({ type: "LOCATION_CHANGED", path: "/profile" })
    expect(a?.getSnapshot().matches({ open: "general" })).toBe(true)
    expect(made.generalLoads.calls).toHaveLength(2)
    expect(made.pushed).toEqual(["/profile/sessions", "/profile/sessions/"])
    // Leaving /profile stops the area (and its tab).
    made.shell.send({ type: "NAVIGATE", path: "/terms" })
    expect(areaOf(made)).toBeUndefined()
    expect(made.generalLoads.last().signal.aborted).toBe(true)
    expect(made.shell.getSnapshot().matches({ ready: "page" })).toBe(true)
  })

  it("after a self-exclusion goes home first, then the session is re-checked and ends", async () => {
    const made = makeShell("/profile/responsible-gaming")
    await ready(made, { isAuthenticated: true, user: fixtureUser })
    made.settingsLoads
      .last()
      .resolve({ settings: fixtureResponsibleGaming, readAt: Date.parse("2026-11-23T10:00:00Z") })
    await settle()
    const tab = areaOf(made)?.getSnapshot().children.responsibleGaming
    const exclusion = tab?.getSnapshot().children.selfExclusion
    exclusion?.send({ type: "CHOOSE", period: "24h" })
    exclusion?.send({ type: "CONFIRM" })
    expect(made.exclude.last().input).toBe("24h")
    made.exclude.last().resolve({ period: "24h", until: "2026-11-24T10:00:00Z" })
    await settle()
    expect(made.pushed).toEqual(["/"])
    expect(made.shell.getSnapshot().context.path).toBe("/")
    expect(areaOf(made)).toBeUndefined()
    const auth = made.shell.system.get("auth") as ActorRefFrom<typeof authMachine>
    expect(auth.getSnapshot().value).toBe("checking")
    made.check.last().resolve({ isAuthenticated: false, user: null })
    await settle()
    expect(auth.getSnapshot().value).toBe("anonymous")
  })

  it("refreshes the session's copy of the profile when a tab changed the account", async () => {
    const made = makeShell("/profile")
    await ready(made, { isAuthenticated: true, user: fixtureUser })
    made.load.last().resolve(fixtureAccount)
    await settle()
    expect(made.load.calls).toHaveLength(1)
    areaOf(made)?.send({ type: "ACCOUNT_CHANGED" })
    await settle()
    expect(made.load.calls).toHaveLength(2)
  })
})

describe("the session when the page is visible again", () => {
  const makeAuth = () => {
    const check = controlled<AuthStatus, unknown>()
    const load = controlled<Account, unknown>()
    const settings = controlled<RealityCheckSettings, unknown>()
    const parent = createMachine({
      invoke: {
        id: "auth",
        systemId: "auth",
        src: authMachine.provide({
          actors: {
            checkSession: check.logic,
            loadAccount: load.logic,
            loadRealityCheck: fromPromise<void>(async () => {}),
            realityCheck: realityCheckMachine.provide({ actors: { loadSettings: settings.logic } }),
          },
          actions: {
            navigateHome: () => {},
            showLoading: () => {},
            hideLoading: () => {},
            notifyError: () => {},
          },
        }),
      },
    })
    const root = createActor(parent).start()
    const auth = root.system.get("auth") as ActorRefFrom<typeof authMachine>
    return { auth, check, load, settings }
  }

  const signedIn = async (made: ReturnType<typeof makeAuth>) => {
    made.check.last().resolve({ isAuthenticated: true, user: fixtureUser })
    await settle()
    made.load.last().resolve(fixtureAccount)
    await settle()
  }

  it("stays signed in without reloading the account when the session still holds", async () => {
    const made = makeAuth()
    await signedIn(made)
    made.auth.send({ type: "PAGE_VISIBLE" })
    expect(made.auth.getSnapshot().matches({ authenticated: { account: "verifying" } })).toBe(true)
    made.check.last().resolve({ isAuthenticated: true, user: fixtureUser })
    await settle()
    expect(made.auth.getSnapshot().matches({ authenticated: { account: "ready" } })).toBe(true)
    expect(made.load.calls).toHaveLength(1)
  })

  it("goes anonymous at once when the session was revoked elsewhere", async () => {
    const made = makeAuth()
    await signedIn(made)
    made.auth.send({ type: "PAGE_VISIBLE" })
    made.check.last().resolve({ isAuthenticated: false, user: null })
    await settle()
    expect(made.auth.getSnapshot().value).toBe("anonymous")
    expect(made.auth.getSnapshot().context).toEqual({ user: null, profile: null, fund: null, loyalty: null })
  })

  it("keeps the session when the check cannot reach the server", async () => {
    const made = makeAuth()
    await signedIn(made)
    made.auth.send({ type: "PAGE_VISIBLE" })
    made.check.last().reject(new TypeError("Failed to fetch"))
    await settle()
    expect(made.auth.getSnapshot().matches({ authenticated: { account: "ready" } })).toBe(true)
  })

  it("tells the reality check to read its settings again after a change", async () => {
    const made = makeAuth()
    await signedIn(made)
    expect(made.auth.getSnapshot().matches({ authenticated: { realityCheck: "running" } })).toBe(true)
    expect(made.settings.calls).toHaveLength(1)
    made.settings.last().resolve({ minutes: null, signedInAt: 0, now: 0 })
    await settle()
    made.auth.send({ type: "REFRESH" })
    await settle()
    // Both regions heard it: the account is read again, and so are the reality-check settings.
    expect(made.settings.calls).toHaveLength(2)
    expect(made.load.calls).toHaveLength(2)
  })
})
