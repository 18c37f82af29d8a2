/**
 * Binding of machines/games/gamePage.model.ts to the game page (ui/games/GameView.tsx), the studio's
 * page in its frame and the real server. The model's fixture game is the studio's Dice
 * (`dice-classic`); a catalogue without it is a page opened on an id the catalogue does not have.
 * The player signs in and out through the header (the login modal, the real captcha), so the page
 * gets the session events the app really sends; the frame's messages come from real rounds played
 * in the studio's page (a demo roll; a real roll with no money is refused INSUFFICIENT_FUNDS).
 */
import { expect, type FrameLocator, type Page } from "@playwright/test"
import type { EventObject } from "xstate"
import { GamePageMessages } from "../../../machines/games/gamePage.machine.ts"
import { model } from "../../../machines/games/gamePage.model.ts"
import type { GeneratedPath, PathStep } from "../../../statecharts/paths.ts"
import { type NewPlayer, solvedCaptcha } from "../support/api.ts"
import {
  type EventBinding,
  type FlowBinding,
  type StepContext,
  unbound,
  unproducible,
} from "../support/replay.ts"
import { skip } from "../support/skip-reasons.ts"
import { solveCaptchaWidget } from "../support/ui.ts"
import { API, contextOf, isTransportFailure, newPlayer } from "./common.ts"

const GAME = { id: "dice-classic", name: "Dice" } as const
const MISSING = "no-such-game"

export interface GamePageState {
  readonly player: NewPlayer
  /** The id the page opens: the real game, or one the catalogue does not have. */
  gameId: string
  /**
   * A path that signs in while the page still loads: the page cannot be caught loading, so the player
   * signs in (API) before it opens, and the page starts from that session, as the machine then does.
   */
  signedInEarly: boolean
}

type Ctx = StepContext<GamePageState>

const studio = (page: Page): FrameLocator => page.frameLocator(".game__frame")
const banner = (page: Page) => page.getByRole("banner")

const outputOf = (event: EventObject): unknown => ("output" in event ? event.output : undefined)
const errorOf = (event: EventObject): unknown => ("error" in event ? event.error : undefined)
const tagOf = (value: unknown): string =>
  typeof value === "object" && value !== null && "_tag" in value && typeof value._tag === "string"
    ? value._tag
    : ""
const catalogueHasGames = (event: EventObject): boolean => {
  const output = outputOf(event)
  const games = typeof output === "object" && output !== null ? Reflect.get(output, "games") : undefined
  return Array.isArray(games) && games.length > 0
}
const frameMessage = (event: EventObject): string => {
  const message = "message" in event ? event.message : undefined
  const type = typeof message === "object" && message !== null ? Reflect.get(message, "type") : undefined
  return typeof type === "string" ? type : ""
}

/** One roll of `bet` in the studio's dice page in the frame, its answer shown. */
const roll = async (page: Page, bet: string): Promise<void> => {
  const game = studio(page)
  await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
  await game.getByLabel("Bet (EUR)").fill(bet)
  await game.getByRole("button", { name: "Roll", exact: true }).click()
  await expect(game.getByRole("status")).not.toHaveText(/^(…)?$/)
}

const signIn = async ({ page, state }: Ctx): Promise<void> => {
  if (state.signedInEarly) {
    state.signedInEarly = false
    return
  }
  const form = page.getByRole("form", { name: "Log in" })
  // Asking for real money as a visitor already opened the login modal.
  if ((await form.count()) === 0) await banner(page).getByRole("button", { name: "Log in" }).click()
  await form.getByLabel("Email").fill(state.player.email)
  await form.getByLabel("Password", { exact: true }).fill(state.player.password)
  await solveCaptchaWidget(form)
  await form.getByRole("button", { name: "Log in" }).click()
  await expect(banner(page).getByRole("button", { name: "Sign out" })).toBeVisible()
}

const nothing = async (): Promise<void> => {}

const event = (e: EventObject): EventBinding<GamePageState> => {
  switch (e.type) {
    case "xstate.done.actor.catalogue":
      return catalogueHasGames(e)
        ? { kind: "outcome", arrange: nothing }
        : { kind: "outcome", arrange: nothing }
    case "xstate.error.actor.catalogue":
      return isTransportFailure(e)
        ? {
            kind: "outcome",
            arrange: async ({ page }) => {
              await page.route(
                "**/game-aggregator-service/api/v1/games-and-categories/**",
                (route) => route.abort("failed"),
                { times: 1 },
              )
            },
          }
        : unproducible("contractKept", "the catalogue call fails here only in the network")
    case "xstate.done.actor.launch":
      return { kind: "outcome", arrange: nothing }
    case "xstate.error.actor.launch": {
      const error = errorOf(e)
      const tag = tagOf(error)
      const reason = typeof error === "object" && error !== null ? Reflect.get(error, "reason") : undefined
      if (tag === "PlayBlocked")
        return reason === "excluded"
          ? unproducible(
              "pathContradicts",
              "an excluded player's sign-in is refused, so this page never launches for one after SESSION signedIn",
            )
          : unproducible(
              "contractKept",
              "every game of the catalogue has demo and takes the player's EUR wallet",
            )
      if (tag === "GameNotFound")
        return unproducible(
          "pathContradicts",
          "the launch follows the catalogue at once: the game cannot be withdrawn between the two",
        )
      if (tag === "Unauthenticated")
        return unproducible("pathContradicts", "the launch follows a sign-in that just succeeded")
      return unproducible(
        "sharedStack",
        "the studio's sandbox serves every test's games beside the e2e server: it is not stopped for one path",
      )
    }
    case "RETRY":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page.getByRole("button", { name: "Try again" }).click()
        },
      }
    case "PLAY":
      return {
        kind: "action",
        run: async ({ page }) => {
          const mode = "mode" in e && e.mode === "real" ? "Real money" : "Demo"
          // The login modal a visitor's "Real money" opened: closed first, as a player would.
          if ((await page.getByRole("dialog", { name: /log in/i }).count()) > 0)
            await page.keyboard.press("Escape")
          await page.getByRole("button", { name: mode, exact: true }).click()
        },
      }
    case "SESSION":
      return "status" in e && e.status === "signedIn"
        ? { kind: "action", run: signIn }
        : unproducible(
            "notSentByApp",
            "signing out from the header leaves for the lobby, so the game page never hears of it (a session ended elsewhere is only noticed by the next call)",
          )
    case "FRAME":
      return frameMessage(e) === "balance"
        ? { kind: "action", run: ({ page }) => roll(page, "1.00") }
        : frameMessage(e) === "insufficientFunds"
          ? { kind: "action", run: ({ page }) => roll(page, "1.00") }
          : { kind: "action", run: ({ page }) => roll(page, "5000.00") }
    case "DISMISS":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page.getByRole("button", { name: "Dismiss" }).click()
        },
      }
    case "FRAME_BLOCKED":
    case "xstate.after.frameTimeout.gamePage.playing.loading":
      return unproducible(
        "playedElsewhere",
        "a frame that cannot load needs the studio cut off (and its 15 s) or the page's CSP changed for this page: hosts.spec.ts plays both (the message, Try again)",
      )
    case "PAUSE":
    case "RESUME":
      return unproducible(
        "playedElsewhere",
        "the reality check's reminder needs the page clock installed before the page opens and 15 minutes fast-forwarded: games.spec.ts plays it once (pause, Continue playing)",
      )
    case "xstate.error.actor.realityCheck":
      return unproducible(
        "notSentByApp",
        "the watcher fails only without a session actor, which the app always runs",
      )
    default:
      return unbound(e)
  }
}

/** The page's mode before step `index` (the model's projected context). */
const modeBefore = (path: GeneratedPath, index: number): unknown => {
  const previous = path.steps[index - 1]
  return previous === undefined ? undefined : contextOf(previous).mode
}

export const gamePageBinding: FlowBinding<GamePageState> = {
  model,
  prepare: async (_page, world, path) => {
    // The page's first catalogue answer decides the address it opens (known game, or not).
    const first = path.steps.find((s) => s.event.type.includes(".actor.catalogue"))
    const missing = first?.event.type === "xstate.done.actor.catalogue" && !catalogueHasGames(first.event)
    return {
      player: await newPlayer(world, "game-page", "dice under fifty 2026"),
      gameId: missing ? MISSING : GAME.id,
      signedInEarly: false,
    }
  },
  open: async ({ page, world, state, path }) => {
    const first = path.steps[1]?.event
    if (first?.type === "SESSION" && "status" in first && first.status === "signedIn") {
      const response = await page.request.post(`${world.baseUrl}${API}/signin`, {
        data: {
          email: state.player.email,
          password: state.player.password,
          captcha: await solvedCaptcha(world.baseUrl),
        },
        headers: { origin: world.baseUrl },
      })
      expect(response.status()).toBe(200)
      state.signedInEarly = true
    }
    await page.goto(`/game/${state.gameId}`)
  },
  event,
  unproducible: (path) => {
    for (const [index, step] of path.steps.entries()) {
      if (
        step.event.type === "xstate.done.actor.catalogue" &&
        !catalogueHasGames(step.event) &&
        path.steps.slice(1, index).some((s) => s.event.type.includes(".actor.catalogue"))
      )
        return skip("pathContradicts", "the game is in the real catalogue once the page has found it there")
      const previous = path.steps[index - 1]
      if (step.event.type === "SESSION" && previous !== undefined && "status" in step.event) {
        if (contextOf(previous).session === step.event.status)
          return skip(
            "notSentByApp",
            "the app tells the page of a session change, never of the status it already has",
          )
      }
      if (step.event.type !== "FRAME") continue
      const mode = modeBefore(path, index)
      const message = frameMessage(step.event)
      // The fresh player has no money: a real round is refused, a demo round goes through.
      if (message === "balance" && mode === "real")
        return skip(
          "playedElsewhere",
          "a real round needs a deposit (tests/e2e/games-kinds.spec.ts plays real rounds)",
        )
      if (message === "insufficientFunds" && mode !== "real")
        return skip("contractKept", "the demo wallet holds more than the game's largest bet")
    }
    return null
  },
  expectState: async ({ page, state }, step: PathStep) => {
    const ids = step.stateIds
    const ctx = contextOf(step)
    // Leaf ids ("gamePage.playing.frame"): a state is shown when it or one of its children is.
    const is = (id: string) => ids.some((s) => s === `gamePage.${id}` || s.startsWith(`gamePage.${id}.`))
    if (is("loading")) {
      // Only passed through on the real page (it goes on to the game): no failure shows.
      await expect(page.getByText(GamePageMessages.loadFailed)).toHaveCount(0)
      return
    }
    if (is("needsLogin")) {
      // The page asked for the login modal; behind it, what the frame's place says.
      await expect(page.getByRole("dialog", { name: /log in/i })).toBeVisible()
      await expect(page.getByText(`Log in to play ${GAME.name} for real money.`)).toHaveCount(1)
      return
    }
    // The header shows the session the page follows.
    await expect(
      banner(page).getByRole("button", { name: ctx.session === "signedIn" ? "Sign out" : "Log in" }),
    ).toBeVisible()
    if (is("loadFailed")) {
      await expect(page.getByRole("alert")).toContainText(GamePageMessages.loadFailed)
      return
    }
    if (is("notFound")) {
      await expect(page.getByRole("heading", { level: 1, name: GamePageMessages.notFound })).toBeVisible()
      return
    }
    await expect(page.getByRole("heading", { level: 1, name: GAME.name })).toBeVisible()
    const mode = ctx.mode === "real" ? "Real money" : "Demo"
    await expect(page.getByRole("button", { name: mode, exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    )
    if (is("playing")) {
      const title = studio(page).getByRole("heading", { level: 1 })
      await expect(title).toContainText(GAME.name)
      if (ctx.mode === "demo") await expect(title).toContainText("DEMO")
      else await expect(title).not.toContainText("DEMO")
      const low = page.getByRole("alert").filter({ hasText: GamePageMessages.insufficientFunds })
      await expect(low).toHaveCount(is("playing.lowBalance") ? 1 : 0)
      return
    }
    // The last step of a path: the launch it started goes on (its outcome is another path's).
    if (is("launching")) return
    if (is("refused") || is("unavailable")) {
      await expect(page.getByRole("alert")).toContainText(String(ctx.message ?? ""))
      return
    }
    throw new Error(`no page assertion for ${ids.join(", ")} (game ${state.gameId})`)
  },
}
