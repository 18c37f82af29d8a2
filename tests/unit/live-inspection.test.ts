/**
 * Live statecharts: the real login machine under `createActor(…, { inspect })` with the live
 * inspector. What the player tab posts (state ids, status, event types) and what it never posts
 * (the e-mail, the password, any other context string, event payloads), replay for a visualizer's
 * "hello", the visualizer's pure fold of the messages, the message guard, and the opt-in flag.
 */
import fc from "fast-check"
import { describe, expect, expectTypeOf, it } from "vitest"
import { createActor, setup } from "xstate"
import { loginMachine } from "../../machines/account/login.machine.ts"
import { fixtureUser, flowInput, signedInStatus } from "../../machines/flowFixtures.ts"
import type { AuthStatus, SignInPayload } from "../../services/user-service.ts"
import {
  createLiveInspector,
  isHelloMessage,
  LIVE_STORAGE_KEY,
  liveModeRequested,
  maskContext,
} from "../../statecharts/live.ts"
import {
  applyLiveMessage,
  emptyLiveState,
  isLiveMessage,
  LIVE_LOG_LIMIT,
  type LiveMessageSchema,
  type LiveState,
  liveActorKey,
  STOPPED_ACTOR_LIMIT,
} from "../../statecharts/live-model.ts"
import type { LiveMessage } from "../../statecharts/types.ts"
import { controlled, settle, toastRecorder } from "./account/doubles.ts"

type Snapshot = Extract<LiveMessage, { type: "snapshot" }>

const recorder = (tab = "tab-1") => {
  const posted: Array<LiveMessage> = []
  const inspector = createLiveInspector({ tab, post: (m) => posted.push(m), now: () => 1_000 })
  return { posted, inspector }
}

const startLogin = (tab = "tab-1") => {
  const { posted, inspector } = recorder(tab)
  const signIn = controlled<AuthStatus, SignInPayload>()
  const { toast } = toastRecorder()
  const actor = createActor(loginMachine.provide({ actors: { signIn: signIn.logic }, actions: { toast } }), {
    input: flowInput(),
    inspect: inspector.inspect,
  })
  actor.start()
  return { actor, signIn, posted, inspector }
}

const snapshots = (posted: ReadonlyArray<LiveMessage>): Array<Snapshot> =>
  posted.filter((m): m is Snapshot => m.type === "snapshot")

const lastSnapshot = (posted: ReadonlyArray<LiveMessage>): Snapshot => {
  const last = snapshots(posted).at(-1)
  if (last === undefined) throw new Error("no snapshot was posted")
  return last
}

/** Every string anywhere inside a value (the context's personal data, in particular). */
const stringsIn = (value: unknown): Array<string> => {
  if (typeof value === "string") return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsIn)
  return []
}

/** Runs the form up to a sign-in with the given values; returns the messages and the final context. */
const signInRun = async (email: string, password: string, captcha: string) => {
  const { actor, signIn, posted } = startLogin()
  actor.send({ type: "CHANGE_EMAIL", value: email })
  actor.send({ type: "CHANGE_PASSWORD", value: password })
  actor.send({ type: "CAPTCHA_VERIFIED", payload: captcha })
  actor.send({ type: "SUBMIT" })
  const context = actor.getSnapshot().context
  return { actor, signIn, posted, context }
}

describe("live inspector on the real login machine", () => {
  it("reports the login actor, then a snapshot per step with its active state ids", async () => {
    const { actor, signIn, posted } = startLogin()
    expect(posted[0]).toEqual({
      type: "actor",
      tab: "tab-1",
      sessionId: actor.sessionId,
      machine: "login",
      systemId: null,
      parent: null,
    })
    expect(lastSnapshot(posted)).toMatchObject({
      event: "xstate.init",
      status: "active",
      stateIds: ["login", "login.editing"],
    })

    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    actor.send({ type: "CHANGE_PASSWORD", value: "correct horse battery" })
    actor.send({ type: "CAPTCHA_VERIFIED", payload: "altcha-payload-1" })
    expect(lastSnapshot(posted)).toMatchObject({
      event: "CAPTCHA_VERIFIED",
      stateIds: ["login", "login.editing"],
    })

    actor.send({ type: "SUBMIT" })
    expect(lastSnapshot(posted)).toMatchObject({ event: "SUBMIT", stateIds: ["login", "login.submitting"] })

    signIn.last().resolve(signedInStatus)
    await settle()
    expect(actor.getSnapshot().status).toBe("done")
    expect(lastSnapshot(posted)).toMatchObject({
      event: "xstate.done.actor.signIn",
      status: "done",
      stateIds: ["login", "login.signedIn"],
    })
    expect(posted.at(-1)).toEqual({
      type: "stopped",
      tab: "tab-1",
      sessionId: actor.sessionId,
      machine: "login",
    })

    // Event messages carry the type and nothing else; the promise actor (signIn) is never reported.
    expect(posted.filter((m) => m.type === "event").map((m) => m.type === "event" && m.event)).toEqual([
      "xstate.init",
      "CHANGE_EMAIL",
      "CHANGE_PASSWORD",
      "CAPTCHA_VERIFIED",
      "SUBMIT",
      "xstate.done.actor.signIn",
    ])
    for (const m of posted) {
      if (m.type !== "hello") expect(m.sessionId).toBe(actor.sessionId)
      if (m.type === "event")
        expect(Object.keys(m).sort()).toEqual(["at", "event", "machine", "sessionId", "tab", "type"])
    }
  })

  it("masks the context to the kind of each value", () => {
    const { actor, posted } = startLogin()
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    expect(lastSnapshot(posted).context).toEqual({
      email: "string",
      password: "string",
      validEmail: "boolean",
      passwordLooksLong: "boolean",
      submitted: "boolean",
      captcha: "null",
      captchaKey: "number",
      errors: "object",
      blockedDomains: "array",
      user: "null",
    })
    actor.stop()
    expect(lastSnapshot(posted).status).toBe("stopped")
    expect(posted.at(-1)?.type).toBe("stopped")
  })

  it("posts no e-mail, password, captcha payload or other context string (incl. the signed-in user)", async () => {
    const email = "ada.private@lovelace.example"
    const password = "correct horse battery staple"
    const { signIn, posted, context } = await signInRun(email, password, "altcha-payload-secret")
    signIn.last().resolve(signedInStatus)
    await settle()
    const secrets = [
      ...stringsIn(context),
      fixtureUser.email,
      fixtureUser.fullName,
      fixtureUser.id,
      "altcha-payload-secret",
    ].filter((s) => s.length > 0)
    expect(secrets).toEqual(expect.arrayContaining([email, password, "blocked.example"]))
    const json = JSON.stringify(posted)
    for (const secret of secrets) expect(json).not.toContain(secret)
  })

  it("property: what is posted never depends on, nor contains, the values typed", async () => {
    /** The stream as JSON, with the actor's session id (a process-wide counter) made constant. */
    const streamOf = async (email: string, password: string, captcha: string) => {
      const { actor, posted } = await signInRun(email, password, captcha)
      return JSON.stringify(posted).replaceAll(JSON.stringify(actor.sessionId), '"<session>"')
    }
    const baseline = await streamOf("a@b.example", "pw", "captcha")
    await fc.assert(
      fc.asyncProperty(
        fc.emailAddress(),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        async (email, password, captcha) => {
          const json = await streamOf(email, password, captcha)
          // Byte for byte the same stream as for other values: nothing derived from them leaks.
          expect(json).toBe(baseline)
          for (const secret of [email, password, captcha]) {
            // A secret that is a substring of the fixed structure (e.g. "login") proves nothing.
            if (!baseline.includes(secret)) expect(json).not.toContain(secret)
          }
        },
      ),
      { numRuns: 100 },
    )
  })

  it("reports invoked child machines with their parent and systemId", () => {
    const { posted, inspector } = recorder()
    const host = setup({ actors: { login: loginMachine } }).createMachine({
      id: "host",
      invoke: { id: "login", src: "login", systemId: "loginFlow", input: flowInput() },
    })
    const actor = createActor(host, { inspect: inspector.inspect })
    actor.start()
    const child = posted.find((m) => m.type === "actor" && m.machine === "login")
    expect(child).toMatchObject({ parent: actor.sessionId, systemId: "loginFlow" })
    const childSnapshot = snapshots(posted).find((m) => m.machine === "login")
    expect(childSnapshot).toMatchObject({ systemId: "loginFlow", stateIds: ["login", "login.editing"] })
    actor.stop()
    expect(posted.filter((m) => m.type === "stopped").map((m) => m.type === "stopped" && m.machine)).toEqual(
      expect.arrayContaining(["host", "login"]),
    )
  })

  it("replay re-posts the latest actor and snapshot of every live actor, and nothing once stopped", () => {
    const { actor, posted, inspector } = startLogin()
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    actor.send({ type: "SUBMIT" })
    const actorMessage = posted[0]
    const current = lastSnapshot(posted)
    expect(current.event).toBe("SUBMIT")

    posted.length = 0
    inspector.replay()
    expect(posted).toEqual([actorMessage, current])

    actor.stop()
    posted.length = 0
    inspector.replay()
    expect(posted).toEqual([])
  })

  it("stopAll ends every live actor (the tab is going away)", () => {
    const { actor, posted, inspector } = startLogin()
    posted.length = 0
    inspector.stopAll()
    expect(posted).toEqual([{ type: "stopped", tab: "tab-1", sessionId: actor.sessionId, machine: "login" }])
    posted.length = 0
    inspector.replay()
    expect(posted).toEqual([])
  })
})

describe("maskContext", () => {
  it("maps each top-level value to its kind", () => {
    const { actor } = startLogin()
    expect(
      maskContext({
        s: "secret",
        n: 1,
        b: false,
        z: null,
        u: undefined,
        a: ["secret"],
        o: { secret: "secret" },
        ref: actor,
        big: 1n,
      }),
    ).toEqual({
      s: "string",
      n: "number",
      b: "boolean",
      z: "null",
      u: "undefined",
      a: "array",
      o: "object",
      ref: "actor",
      big: "bigint",
    })
  })

  it("gives an empty record for anything that is not an object", () => {
    for (const value of [undefined, null, "secret", 3, ["secret"]]) expect(maskContext(value)).toEqual({})
  })
})

describe("applyLiveMessage (the visualizer's fold)", () => {
  const fold = (messages: ReadonlyArray<LiveMessage>, from: LiveState = emptyLiveState): LiveState =>
    messages.reduce(applyLiveMessage, from)

  it("aggregates a real run into the actor's current states, status, last event and masked context", async () => {
    const { actor, signIn, posted } = await signInRun("ada@lovelace.example", "pw", "captcha")
    const key = liveActorKey("tab-1", actor.sessionId)

    const submitting = fold(posted)
    expect(submitting.actors.get(key)).toMatchObject({
      machine: "login",
      tab: "tab-1",
      parent: null,
      stateIds: ["login", "login.submitting"],
      status: "active",
      lastEvent: "SUBMIT",
      context: { email: "string", password: "string" },
      updatedAt: 1_000,
      stopped: false,
    })
    expect(submitting.log.map((e) => e.kind)).toEqual(posted.map((m) => m.type))

    const before = posted.length
    signIn.last().resolve(signedInStatus)
    await settle()
    const done = fold(posted.slice(before), submitting)
    expect(done.actors.get(key)).toMatchObject({
      stateIds: ["login", "login.signedIn"],
      status: "done",
      lastEvent: "xstate.done.actor.signIn",
      stopped: true,
    })
    // Immutable: the earlier state is untouched.
    expect(submitting.actors.get(key)?.status).toBe("active")
    expect(submitting.log).toHaveLength(before)
  })

  it("keys actors by tab and session (every tab's session ids start at x:0) and links parents", () => {
    const base = { machine: "login", systemId: null } as const
    const state = fold([
      { type: "actor", tab: "A", sessionId: "x:0", machine: "shell", systemId: null, parent: null },
      { type: "actor", tab: "A", sessionId: "x:1", ...base, parent: "x:0" },
      { type: "actor", tab: "B", sessionId: "x:1", ...base, parent: null },
      { type: "hello" },
    ])
    expect([...state.actors.keys()]).toEqual(["A/x:0", "A/x:1", "B/x:1"])
    expect(state.actors.get("A/x:1")?.parent).toBe("A/x:0")
    expect(state.log).toHaveLength(3)
  })

  it("caps the log at the limit, newest last", () => {
    const events: Array<LiveMessage> = Array.from({ length: LIVE_LOG_LIMIT + 300 }, (_, i) => ({
      type: "event",
      tab: "A",
      sessionId: "x:0",
      machine: "login",
      event: `E${i}`,
      at: i,
    }))
    const state = fold(events)
    expect(state.log).toHaveLength(LIVE_LOG_LIMIT)
    expect(state.log.at(-1)?.event).toBe(`E${LIVE_LOG_LIMIT + 299}`)
    expect(state.log[0]?.event).toBe("E300")
    expect(state.log.at(-1)?.seq).toBe(LIVE_LOG_LIMIT + 300)
  })

  it("keeps at most the limit of stopped actors, dropping the oldest", () => {
    const messages: Array<LiveMessage> = Array.from({ length: STOPPED_ACTOR_LIMIT + 10 }, (_, i) => ({
      type: "stopped",
      tab: "A",
      sessionId: `x:${i}`,
      machine: "login",
    }))
    const state = fold([
      { type: "actor", tab: "A", sessionId: "live", machine: "shell", systemId: null, parent: null },
      ...messages,
    ])
    expect(state.actors.size).toBe(STOPPED_ACTOR_LIMIT + 1)
    expect(state.actors.has("A/live")).toBe(true)
    expect(state.actors.has("A/x:0")).toBe(false)
    expect(state.actors.has(`A/x:${STOPPED_ACTOR_LIMIT + 9}`)).toBe(true)
  })
})

describe("isLiveMessage (untrusted channel input)", () => {
  it("has the type of LiveMessage exactly", () => {
    expectTypeOf<typeof LiveMessageSchema.Type>().toEqualTypeOf<LiveMessage>()
  })

  it("accepts every message a real run posts, and hello", async () => {
    const { posted } = await signInRun("ada@lovelace.example", "pw", "captcha")
    expect(posted.length).toBeGreaterThan(3)
    for (const m of [...posted, { type: "hello" }]) expect(isLiveMessage(m)).toBe(true)
  })

  it("rejects malformed input", () => {
    const snapshot = {
      type: "snapshot",
      tab: "t",
      sessionId: "x:0",
      machine: "login",
      systemId: null,
      event: "SUBMIT",
      status: "active",
      stateIds: ["login"],
      context: { email: "string" },
      at: 1,
    }
    expect(isLiveMessage(snapshot)).toBe(true)
    const bad: Array<unknown> = [
      null,
      undefined,
      "hello",
      42,
      [],
      {},
      { type: "goodbye" },
      { type: "actor", tab: "t", sessionId: "x:0", machine: "m", systemId: null },
      { type: "stopped", tab: "t", sessionId: 0, machine: "m" },
      { type: "event", tab: "t", sessionId: "x:0", machine: "m", event: "E", at: "1" },
      { type: "event", tab: "t", sessionId: "x:0", machine: "m", event: "E", at: Number.NaN },
      { ...snapshot, stateIds: "login" },
      { ...snapshot, stateIds: [1] },
      { ...snapshot, context: { email: "ada@lovelace.example".length } },
      { ...snapshot, systemId: undefined },
      { ...snapshot, tab: undefined },
    ]
    for (const value of bad) expect(isLiveMessage(value), JSON.stringify(value) ?? "undefined").toBe(false)
  })

  it("isHelloMessage recognizes only a hello", () => {
    expect(isHelloMessage({ type: "hello" })).toBe(true)
    for (const value of [null, "hello", { type: "actor" }, {}]) expect(isHelloMessage(value)).toBe(false)
  })
})

describe("liveModeRequested (the opt-in flag)", () => {
  const memoryStorage = () => {
    const items = new Map<string, string>()
    return {
      items,
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    }
  }

  it("is off by default", () => {
    expect(liveModeRequested("", memoryStorage())).toBe(false)
    expect(liveModeRequested("?statecharts=other", memoryStorage())).toBe(false)
    expect(liveModeRequested("", null)).toBe(false)
  })

  it("?statecharts=live turns it on and remembers it for the tab; ?statecharts=off forgets it", () => {
    const storage = memoryStorage()
    expect(liveModeRequested("?modal=login&statecharts=live", storage)).toBe(true)
    expect(storage.items.get(LIVE_STORAGE_KEY)).toBe("live")
    expect(liveModeRequested("", storage)).toBe(true)
    expect(liveModeRequested("?modal=login", storage)).toBe(true)
    expect(liveModeRequested("?statecharts=off", storage)).toBe(false)
    expect(storage.items.has(LIVE_STORAGE_KEY)).toBe(false)
    expect(liveModeRequested("", storage)).toBe(false)
  })

  it("without (or with a failing) storage, only the query counts", () => {
    expect(liveModeRequested("?statecharts=live", null)).toBe(true)
    const failing = {
      getItem: (): string | null => {
        throw new Error("SecurityError")
      },
      setItem: () => {
        throw new Error("QuotaExceededError")
      },
      removeItem: () => {
        throw new Error("SecurityError")
      },
    }
    expect(liveModeRequested("?statecharts=live", failing)).toBe(true)
    expect(liveModeRequested("", failing)).toBe(false)
  })
})
