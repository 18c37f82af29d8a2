/**
 * Actor-level tests of the shell, session and modal-host machines with controlled doubles:
 * the orderings and guarantees the spec states, which path coverage alone does not prove.
 */
import { Cause, Effect, Exit } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { ActorRefFrom } from "xstate"
import { createActor, createMachine, fromPromise, waitFor } from "xstate"
import type { loginMachine } from "../../machines/account/login.machine.ts"
import type { registerMachine } from "../../machines/account/register.machine.ts"
import { resendConfirmationMachine } from "../../machines/account/resendConfirmation.machine.ts"
import type { resetPasswordMachine } from "../../machines/account/resetPassword.machine.ts"
import { type Account, authMachine } from "../../machines/auth.machine.ts"
import { currencyDropdownMachine } from "../../machines/currencyDropdown.machine.ts"
import type { FlowOutput } from "../../machines/flow.ts"
import {
  fixtureAccount,
  fixtureCurrencies,
  fixtureSiteConfig,
  fixtureUser,
} from "../../machines/flowFixtures.ts"
import { type AccountFlow, modalsMachine, parseModalRequest } from "../../machines/modals.machine.ts"
import { type BootData, ClientIpFailed, loadBoot, shellMachine } from "../../machines/shell.machine.ts"
import { type CapturedError, toCapturedError } from "../../services/captured-error.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { formatMinorUnits } from "../../services/money.ts"
import type { AuthStatus } from "../../services/user-service.ts"

const user = { ...fixtureUser, confirmed: true }
const siteConfig = fixtureSiteConfig
const currencies = fixtureCurrencies
const account: Account = fixtureAccount

/** A promise double the test resolves or rejects by hand, recording calls and aborts. */
const controlled = <T, I = unknown>() => {
  const calls: Array<{ resolve: (value: T) => void; reject: (error: unknown) => void; signal: AbortSignal }> =
    []
  const logic = fromPromise<T, I>(
    ({ signal }) =>
      new Promise<T>((resolve, reject) => {
        calls.push({ resolve, reject, signal })
      }),
  )
  return { logic, calls }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("auth machine", () => {
  const makeAuth = () => {
    const log: string[] = []
    const check = controlled<AuthStatus>()
    const load = controlled<Account>()
    const loadFund = controlled<Account["fund"]>()
    const signOut = controlled<void>()
    const parent = createMachine({
      invoke: {
        id: "auth",
        systemId: "auth",
        src: authMachine.provide({
          actors: {
            checkSession: check.logic,
            loadAccount: load.logic,
            loadFund: loadFund.logic,
            signOut: signOut.logic,
          },
          actions: {
            navigateHome: () => log.push("navigate /"),
            notifyError: (_, params) => log.push(`toast ${params.message}`),
            notifyLevelUp: (_, params) => log.push(`level up ${params.name}`),
            showLoading: () => {},
            hideLoading: () => {},
          },
        }),
      },
    })
    const root = createActor(parent).start()
    const auth = root.system.get("auth") as ActorRefFrom<typeof authMachine> | undefined
    if (!auth) throw new Error("auth not started")
    return { auth, check, load, loadFund, signOut, log }
  }

  it("never queries profile or fund while anonymous", async () => {
    const { auth, check, load } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: false, user: null })
    await flush()
    expect(auth.getSnapshot().value).toBe("anonymous")
    expect(load.calls).toHaveLength(0)
  })

  it("loads profile and fund once authenticated", async () => {
    const { auth, check, load } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    expect(load.calls).toHaveLength(1)
    load.calls[0]?.resolve(account)
    await flush()
    expect(auth.getSnapshot().matches({ authenticated: { account: "ready" } })).toBe(true)
    expect(auth.getSnapshot().context.fund?.[0]?.balance).toBe("1250")
  })

  it("a pushed balance is written into the fund: a round costs no profile or fund request", async () => {
    const { auth, check, load, loadFund } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    load.calls[0]?.resolve(account)
    await flush()
    // A bet, then its win, in the EUR wallet the session knows.
    auth.send({ type: "BALANCE", currency: "EUR", balance: "1150" })
    auth.send({ type: "BALANCE", currency: "EUR", balance: "1400" })
    expect(auth.getSnapshot().context.fund?.find((w) => w.currency === "EUR")?.balance).toBe("1400")
    expect(load.calls).toHaveLength(1)
    expect(loadFund.calls).toHaveLength(0)
    expect(auth.getSnapshot().matches({ authenticated: { account: "ready" } })).toBe(true)
  })

  it("a pushed loyalty level is shown at once and told once, with no request", async () => {
    const { auth, check, load, loadFund, log } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    load.calls[0]?.resolve(account)
    await flush()
    expect(auth.getSnapshot().context.loyalty).toEqual({ level: 1, name: "Bronze" })
    auth.send({ type: "LEVEL_UP", level: 2, name: "Silver" })
    expect(auth.getSnapshot().context.loyalty).toEqual({ level: 2, name: "Silver" })
    expect(log).toEqual(["level up Silver"])
    expect(load.calls).toHaveLength(1)
    expect(loadFund.calls).toHaveLength(0)
  })

  it("reads the fund alone for a wallet it does not know, and when the stream (re)opens", async () => {
    const { auth, check, load, loadFund } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    load.calls[0]?.resolve(account)
    await flush()
    auth.send({ type: "BALANCE", currency: "USDT", balance: "25000000" })
    expect(loadFund.calls).toHaveLength(1)
    const withUsdt = [
      ...account.fund,
      { currency: "USDT", default: false, balance: "25000000", freeSpinWallet: null },
    ]
    loadFund.calls[0]?.resolve(withUsdt)
    await flush()
    expect(auth.getSnapshot().context.fund?.map((w) => w.currency)).toEqual(["EUR", "USDT"])
    // Pushes missed while the stream was down: the fund is read again; the profile never is.
    auth.send({ type: "STREAM_OPENED" })
    expect(loadFund.calls).toHaveLength(2)
    expect(load.calls).toHaveLength(1)
  })

  it("signs out in the spec's order: navigate to /, call sign-out, then clear the user", async () => {
    const { auth, check, load, signOut, log } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    load.calls[0]?.resolve(account)
    await flush()
    auth.send({ type: "SIGN_OUT" })
    expect(log).toEqual(["navigate /"])
    expect(signOut.calls).toHaveLength(1)
    // The user is still there while the call runs…
    expect(auth.getSnapshot().context.user).not.toBeNull()
    signOut.calls[0]?.resolve()
    await flush()
    // …and cleared only after it succeeded.
    expect(auth.getSnapshot().value).toBe("anonymous")
    expect(auth.getSnapshot().context).toEqual({ user: null, profile: null, fund: null, loyalty: null })
  })

  it("keeps the session and says so when sign-out fails", async () => {
    const { auth, check, load, signOut, log } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    load.calls[0]?.resolve(account)
    await flush()
    auth.send({ type: "SIGN_OUT" })
    signOut.calls[0]?.reject(new Error("offline"))
    await flush()
    expect(auth.getSnapshot().matches({ authenticated: { account: "ready" } })).toBe(true)
    expect(log).toContain("toast Signout did not work!")
  })

  it("drops to anonymous when the session is gone while loading the account", async () => {
    const { auth, check, load } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    load.calls[0]?.reject(new Unauthenticated({ message: "expired" }))
    await flush()
    expect(auth.getSnapshot().value).toBe("anonymous")
  })

  it("reports 'Get fund did not work' and stays signed in on another load failure", async () => {
    const { auth, check, load, log } = makeAuth()
    check.calls[0]?.resolve({ isAuthenticated: true, user })
    await flush()
    load.calls[0]?.reject(new Error("500"))
    await flush()
    expect(auth.getSnapshot().matches({ authenticated: { account: "ready" } })).toBe(true)
    expect(log).toContain("toast Get fund did not work")
  })
})

describe("shell machine", () => {
  const boot = (isoCode: string): BootData => ({
    ip: { country: isoCode === "GB" ? "United Kingdom" : "Malta", isoCode },
    restricted: ["US", "GB"],
    siteConfig,
    currencies,
  })

  const makeShell = (search = "") => {
    const bootCall = controlled<BootData>()
    const report = controlled<void, CapturedError>()
    const check = controlled<AuthStatus>()
    const load = controlled<Account>()
    const shell = createActor(
      shellMachine.provide({
        actors: {
          boot: bootCall.logic,
          reportError: report.logic,
          auth: authMachine.provide({ actors: { checkSession: check.logic, loadAccount: load.logic } }),
        },
      }),
      { input: { path: "/", search } },
    ).start()
    return { shell, bootCall, report, check, load }
  }

  it("renders nothing but the blocked page for a restricted country, and starts no session", async () => {
    const { shell, bootCall, check } = makeShell()
    expect(shell.getSnapshot().value).toBe("booting")
    bootCall.calls[0]?.resolve(boot("GB"))
    await flush()
    expect(shell.getSnapshot().value).toBe("blocked")
    expect(shell.getSnapshot().context.ip?.country).toBe("United Kingdom")
    expect(check.calls).toHaveLength(0)
    expect(shell.getSnapshot().children.modals).toBeUndefined()
  })

  it("reports a boot failure through the error logger and shows the 500 page", async () => {
    const { shell, bootCall, report } = makeShell()
    bootCall.calls[0]?.reject(new Error("Client Ip went wrong"))
    await flush()
    expect(shell.getSnapshot().matches({ crashed: "reporting" })).toBe(true)
    report.calls[0]?.resolve()
    await flush()
    expect(shell.getSnapshot().matches({ crashed: "shown" })).toBe(true)
    expect(shell.getSnapshot().context.error?.message).toBe("Client Ip went wrong")
  })

  it("starts the session and the modal host once ready, and forwards sign-ins", async () => {
    const { shell, bootCall, check, load } = makeShell()
    bootCall.calls[0]?.resolve(boot("MT"))
    await waitFor(shell, (s) => s.matches("ready"))
    expect(check.calls).toHaveLength(1)
    check.calls[0]?.resolve({ isAuthenticated: false, user: null })
    await flush()
    const auth = shell.system.get("auth") as ActorRefFrom<typeof authMachine>
    expect(auth.getSnapshot().value).toBe("anonymous")
    shell.send({ type: "SIGNED_IN", user })
    expect(auth.getSnapshot().matches("authenticated")).toBe(true)
    expect(load.calls).toHaveLength(1)
  })

  it("opens the reset-password modal from an e-mail link", async () => {
    const { shell, bootCall } = makeShell("?modal=reset-password&token=abc")
    bootCall.calls[0]?.resolve(boot("MT"))
    await waitFor(shell, (s) => s.matches("ready"))
    const modals = shell.system.get("modals") as ActorRefFrom<typeof modalsMachine>
    expect(modals.getSnapshot().matches({ resetPassword: "loading" })).toBe(true)
    // The real loader: the reset-password flow's module is imported, then the flow runs.
    await waitFor(modals, (s) => s.matches({ resetPassword: "active" }))
    expect(modals.getSnapshot().children.resetPassword?.getSnapshot().status).toBe("active")
    expect(modals.getSnapshot().context.content.token).toBe("abc")
  })
})

describe("modal host machine", () => {
  // Stand-in flows: one that finishes at once with an output, one that never finishes. The modal
  // host only sees a child machine's output, so the casts to the real flow types are sound here.
  type AnyFlow = typeof loginMachine
  const finishing = (output: FlowOutput) =>
    createMachine({
      id: "flow",
      initial: "done",
      states: { done: { type: "final" } },
      output: () => output,
    }) as unknown as AnyFlow
  const idle = createMachine({ id: "idle" }) as unknown as AnyFlow

  const instantLoad = fromPromise<void, AccountFlow>(async () => undefined)

  const makeModals = (
    flows: Partial<Record<"loginFlow" | "registerFlow" | "resetPasswordFlow", AnyFlow>>,
    loader = instantLoad,
  ) => {
    const toParent: Array<{ type: string }> = []
    const parent = createMachine({
      on: { "*": { actions: ({ event }) => toParent.push(event) } },
      invoke: {
        id: "modals",
        systemId: "modals",
        src: modalsMachine.provide({
          actors: {
            // The flows' code is "downloaded" at once; a test of a failed download is below.
            loadFlow: loader,
            loginFlow: flows.loginFlow ?? idle,
            registerFlow: (flows.registerFlow ?? idle) as unknown as typeof registerMachine,
            resetPasswordFlow: (flows.resetPasswordFlow ?? idle) as unknown as typeof resetPasswordMachine,
          },
        }),
        input: { siteConfig, currencies, request: null },
      },
    })
    const root = createActor(parent).start()
    const modals = root.system.get("modals") as ActorRefFrom<typeof modalsMachine> | undefined
    if (!modals) throw new Error("modals not started")
    return { modals, toParent }
  }

  it("switches between login and register, one modal at a time", async () => {
    const { modals } = makeModals({})
    modals.send({ type: "OPEN_LOGIN" })
    await flush()
    expect(modals.getSnapshot().matches({ login: "active" })).toBe(true)
    modals.send({ type: "SWITCH_TO_REGISTER" })
    await flush()
    expect(modals.getSnapshot().matches("register")).toBe(true)
    expect(modals.getSnapshot().children.login).toBeUndefined()
    modals.send({ type: "SWITCH_TO_LOGIN" })
    await flush()
    expect(modals.getSnapshot().matches({ login: "active" })).toBe(true)
    modals.send({ type: "CLOSE" })
    expect(modals.getSnapshot().value).toBe("closed")
  })

  it("keeps the register flow alive while the tutorial video is open", async () => {
    const { modals } = makeModals({})
    modals.send({ type: "OPEN_REGISTER" })
    await flush()
    const registerFlow = modals.getSnapshot().children.register
    modals.send({ type: "OPEN_VIDEO" })
    expect(modals.getSnapshot().matches({ register: { active: "video" } })).toBe(true)
    expect(modals.getSnapshot().context.content.url).toBe(siteConfig.tutorialVideoUrl)
    expect(modals.getSnapshot().children.register).toBe(registerFlow)
    modals.send({ type: "CLOSE_VIDEO" })
    expect(modals.getSnapshot().matches({ register: { active: "form" } })).toBe(true)
    expect(modals.getSnapshot().children.register).toBe(registerFlow)
  })

  it("routes a successful login to the shell and closes", async () => {
    const { modals, toParent } = makeModals({ loginFlow: finishing({ type: "signedIn", user }) })
    modals.send({ type: "OPEN_LOGIN" })
    await flush()
    expect(modals.getSnapshot().value).toBe("closed")
    expect(toParent).toEqual([{ type: "SIGNED_IN", user }])
  })

  it("sends a registered player home, signed in", async () => {
    const { modals, toParent } = makeModals({ registerFlow: finishing({ type: "registered", user }) })
    modals.send({ type: "OPEN_REGISTER" })
    await flush()
    expect(toParent).toEqual([
      { type: "SIGNED_IN", user },
      { type: "NAVIGATE", path: "/" },
    ])
  })

  it("re-checks the session after a password reset", async () => {
    const { modals, toParent } = makeModals({ resetPasswordFlow: finishing({ type: "passwordReset" }) })
    modals.send({ type: "OPEN_RESET_PASSWORD", token: "t" })
    await flush()
    expect(toParent).toEqual([{ type: "AUTH_RECHECK" }])
    expect(modals.getSnapshot().context.content).toEqual({ token: null, url: null })
  })

  it("shows the flow only once its code arrived, and closes and reports when it cannot", async () => {
    let fail: (error: Error) => void = () => undefined
    const pending = fromPromise<void, AccountFlow>(
      () =>
        new Promise<void>((_, reject) => {
          fail = reject
        }),
    )
    const { modals, toParent } = makeModals({}, pending)
    modals.send({ type: "OPEN_LOGIN" })
    expect(modals.getSnapshot().matches({ login: "loading" })).toBe(true)
    expect(modals.getSnapshot().children.login).toBeUndefined()
    fail(new Error("Failed to fetch dynamically imported module"))
    await flush()
    expect(modals.getSnapshot().value).toBe("closed")
    expect(toParent).toEqual([
      {
        type: "UNEXPECTED_ERROR",
        error: expect.objectContaining({ message: "Failed to fetch dynamically imported module" }),
      },
    ])
  })

  it("reads e-mail links", () => {
    expect(parseModalRequest("?modal=confirm-email&token=x")).toEqual({ modal: "confirm-email", token: "x" })
    expect(parseModalRequest("?modal=reset-password")).toBeNull()
    expect(parseModalRequest("?modal=other&token=x")).toBeNull()
  })
})

describe("currency dropdown machine", () => {
  it("closes on Escape and outside clicks, and emits the selection", () => {
    const actor = createActor(currencyDropdownMachine, { input: { selected: "EUR" } }).start()
    const selected: string[] = []
    actor.on("selected", (e) => selected.push(e.code))
    actor.send({ type: "TOGGLE" })
    actor.send({ type: "KEY_DOWN", keyCode: 13 })
    expect(actor.getSnapshot().value).toBe("open")
    actor.send({ type: "KEY_DOWN", keyCode: 27 })
    expect(actor.getSnapshot().value).toBe("closed")
    actor.send({ type: "TOGGLE" })
    actor.send({ type: "OUTSIDE_CLICK" })
    expect(actor.getSnapshot().value).toBe("closed")
    actor.send({ type: "TOGGLE" })
    actor.send({ type: "SELECT", code: "BTC" })
    expect(selected).toEqual(["BTC"])
    expect(actor.getSnapshot().context.selected).toBe("BTC")
  })
})

describe("money formatting", () => {
  it("formats integer minor units without floats", () => {
    expect(formatMinorUnits("1250", "100")).toBe("12.50")
    expect(formatMinorUnits("123456789", "100")).toBe("1,234,567.89")
    expect(formatMinorUnits("150000000", "100000000")).toBe("1.50")
    expect(formatMinorUnits("1", "1000000000000000000")).toBe("0.00")
    expect(formatMinorUnits("123000000000000000", "1000000000000000000")).toBe("0.123")
    expect(formatMinorUnits("5", "1")).toBe("5")
  })
})

describe("resend confirmation machine", () => {
  it("can be used once per session, whatever the outcome", async () => {
    const resend = controlled<{ message: string }>()
    const toasts: string[] = []
    const actor = createActor(
      resendConfirmationMachine.provide({
        actors: { resend: resend.logic },
        actions: { toast: (_, params) => toasts.push(params.message) },
      }),
    ).start()
    actor.send({ type: "RESEND" })
    resend.calls[0]?.reject(new Error("429"))
    await flush()
    expect(actor.getSnapshot().value).toBe("used")
    expect(toasts).toEqual(["A verification link has already been sent to your email."])
    actor.send({ type: "RESEND" })
    expect(resend.calls).toHaveLength(1)
  })
})

describe("shell boot", () => {
  afterEach(() => vi.unstubAllGlobals())

  it("names a failed client-IP call with the spec's message", async () => {
    // The real client runs; only the network is replaced: the IP call fails, the CDN files answer.
    vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
      const url = String(input)
      if (url.startsWith("/ip-service/")) throw new TypeError("Failed to fetch")
      return new Response("[]", { status: 200, headers: { "content-type": "application/json" } })
    })
    const exit = await Effect.runPromiseExit(loadBoot)
    const failure = Exit.isFailure(exit) ? Cause.squash(exit.cause) : null
    expect(failure).toBeInstanceOf(ClientIpFailed)
    expect((failure as ClientIpFailed).message).toBe("Client Ip went wrong")
    // Spec section 7: "the IP service throws 'Authentication failed!'".
    expect((failure as ClientIpFailed).cause.message).toBe("Authentication failed!")
    // The error report keeps both: the state's message, and the service's below it.
    const captured = toCapturedError(failure)
    expect(captured.message).toBe("Client Ip went wrong")
    expect(captured.stack).toContain("Authentication failed!")
  })
})
