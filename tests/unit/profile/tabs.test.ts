/**
 * The profile tabs' machines on real actors with controlled doubles: what path coverage cannot
 * show — the payloads sent, what is never sent (a file of the wrong type, the current session, a
 * shorter exclusion), and the messages per failure. The reality check's timing is in
 * realityCheck.test.ts.
 */
import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { transportError } from "../../../machines/flowFixtures.ts"
import { changePasswordMachine } from "../../../machines/profile/changePassword.machine.ts"
import {
  fixtureResponsibleGaming,
  fixtureSessions,
  noDocument,
  pendingDocument,
} from "../../../machines/profile/fixtures.ts"
import {
  type LoadedSettings,
  responsibleGamingMachine,
} from "../../../machines/profile/responsibleGaming.machine.ts"
import { selfExclusionMachine } from "../../../machines/profile/selfExclusion.machine.ts"
import { sessionsMachine } from "../../../machines/profile/sessions.machine.ts"
import { unsubscribeMachine } from "../../../machines/profile/unsubscribe.machine.ts"
import {
  type ChosenDocument,
  verificationDocumentMachine,
} from "../../../machines/profile/verificationDocument.machine.ts"
import {
  DocumentLocked,
  ExclusionNotShortened,
  IncorrectPassword,
  PasswordRejected,
  SessionNotFound,
  UnsubscribeLinkInvalid,
} from "../../../services/errors.ts"
import type { SelfExclusionPeriod } from "../../../services/profile-rules.ts"
import {
  DOCUMENT_MAX_BYTES,
  type PlayerSession,
  type ResponsibleGaming,
  type UpdateResponsibleGamingPayload,
  type VerificationDocument,
} from "../../../services/profile-service.ts"
import { controlled, settle, toastRecorder } from "../account/doubles.ts"

describe("sessions", () => {
  const start = async () => {
    const list = controlled<ReadonlyArray<PlayerSession>, unknown>()
    const revoke = controlled<void, string>()
    const { toasts, toast } = toastRecorder()
    const actor = createActor(
      sessionsMachine.provide({ actors: { list: list.logic, revoke: revoke.logic }, actions: { toast } }),
    ).start()
    list.last().resolve(fixtureSessions)
    await settle()
    return { actor, list, revoke, toasts }
  }

  it("never revokes the current session from here", async () => {
    const { actor, revoke } = await start()
    actor.send({ type: "REVOKE", id: "s-current" })
    expect(actor.getSnapshot().value).toBe("ready")
    actor.send({ type: "REVOKE", id: "unknown" })
    expect(actor.getSnapshot().value).toBe("ready")
    expect(revoke.calls).toHaveLength(0)
  })

  it("revokes another device only after the confirmation, then reads the list again", async () => {
    const { actor, list, revoke, toasts } = await start()
    actor.send({ type: "REVOKE", id: "s-phone" })
    expect(actor.getSnapshot().value).toBe("confirming")
    expect(revoke.calls).toHaveLength(0)
    actor.send({ type: "CONFIRM" })
    expect(revoke.last().input).toBe("s-phone")
    revoke.last().resolve()
    await settle()
    expect(list.calls).toHaveLength(2)
    expect(toasts).toEqual([{ kind: "success", message: "The device was signed out." }])
  })

  it("treats a session that is already gone as done, and a failure as nothing done", async () => {
    const { actor, list, revoke, toasts } = await start()
    actor.send({ type: "REVOKE", id: "s-phone" })
    actor.send({ type: "CONFIRM" })
    revoke.last().reject(new SessionNotFound({ message: "No such session" }))
    await settle()
    expect(list.calls).toHaveLength(2)
    list.last().resolve(fixtureSessions)
    await settle()
    actor.send({ type: "REVOKE", id: "s-phone" })
    actor.send({ type: "CONFIRM" })
    revoke.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().value).toBe("ready")
    expect(actor.getSnapshot().context.sessions).toEqual(fixtureSessions)
    expect(toasts.map((t) => t.kind)).toEqual(["info", "error"])
  })
})

describe("self-exclusion", () => {
  const now = Date.parse("2026-11-23T10:00:00Z")
  const start = (current: ResponsibleGaming["selfExclusion"]) => {
    const exclude = controlled<{ period: SelfExclusionPeriod; until: string | null }, SelfExclusionPeriod>()
    const { toasts, toast } = toastRecorder()
    const actor = createActor(
      selfExclusionMachine.provide({ actors: { exclude: exclude.logic }, actions: { toast } }),
      {
        input: { current, now },
      },
    ).start()
    return { actor, exclude, toasts }
  }

  it("offers every period without an exclusion, and never one that would shorten the current one", () => {
    expect(start(null).actor.getSnapshot().context.offered).toHaveLength(8)
    const { actor, exclude } = start({ period: "30d", until: "2026-12-23T10:00:00Z" })
    expect(actor.getSnapshot().context.offered).toEqual(["42d", "6m", "1y", "5y", "permanent"])
    actor.send({ type: "CHOOSE", period: "7d" })
    expect(actor.getSnapshot().value).toBe("choosing")
    expect(exclude.calls).toHaveLength(0)
    expect(start({ period: "permanent", until: null }).actor.getSnapshot().context.offered).toEqual([])
  })

  it("sends the period only after the confirmation, and ends with selfExcluded", async () => {
    const { actor, exclude, toasts } = start(null)
    actor.send({ type: "CHOOSE", period: "6m" })
    expect(actor.getSnapshot().value).toBe("confirming")
    actor.send({ type: "CANCEL" })
    expect(actor.getSnapshot().context.chosen).toBeNull()
    actor.send({ type: "CHOOSE", period: "1y" })
    actor.send({ type: "CONFIRM" })
    expect(exclude.last().input).toBe("1y")
    exclude.last().resolve({ period: "1y", until: "2027-11-23T10:00:00Z" })
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "selfExcluded" })
    expect(toasts).toHaveLength(1)
  })

  it("says so when the server refuses to shorten an exclusion", async () => {
    const { actor, exclude } = start(null)
    actor.send({ type: "CHOOSE", period: "24h" })
    actor.send({ type: "CONFIRM" })
    exclude.last().reject(new ExclusionNotShortened({ message: "later", until: "2027-01-01T00:00:00Z" }))
    await settle()
    expect(actor.getSnapshot().value).toBe("choosing")
    expect(actor.getSnapshot().context.error).toBe(
      "Your current exclusion ends later; it cannot be shortened.",
    )
  })
})

describe("verification document", () => {
  const file = (name: string, type: string, size: number): ChosenDocument => ({
    name,
    type,
    size,
    blob: new Blob([new Uint8Array(Math.min(size, 16))]),
  })

  const start = async (document: VerificationDocument = noDocument("BILL")) => {
    const load = controlled<VerificationDocument, "ID" | "BILL">()
    const upload = controlled<VerificationDocument, { kind: "ID" | "BILL"; file: ChosenDocument }>()
    const actor = createActor(
      verificationDocumentMachine.provide({
        actors: { load: load.logic, upload: upload.logic },
        actions: { toast: () => {} },
      }),
      { input: { kind: "BILL" } },
    ).start()
    expect(load.last().input).toBe("BILL")
    load.last().resolve(document)
    await settle()
    return { actor, upload }
  }

  it("refuses a file of another type or over the limit before anything is sent, with its message", async () => {
    const { actor, upload } = await start()
    actor.send({ type: "CHOOSE", file: file("bill.docx", "application/msword", 2_000) })
    expect(actor.getSnapshot().context.error).toBe("Choose a JPEG, PNG or PDF file.")
    actor.send({ type: "UPLOAD" })
    actor.send({ type: "CHOOSE", file: file("bill.pdf", "application/pdf", DOCUMENT_MAX_BYTES + 1) })
    expect(actor.getSnapshot().context.error).toBe(
      "This file is larger than 10 MB. Choose a smaller scan or photo.",
    )
    expect(actor.getSnapshot().context.file).toBeNull()
    expect(upload.calls).toHaveLength(0)
  })

  it("uploads the chosen file of its kind, and shows the new status", async () => {
    const { actor, upload } = await start()
    const pdf = file("bill.pdf", "application/pdf", 12_000)
    actor.send({ type: "CHOOSE", file: pdf })
    actor.send({ type: "UPLOAD" })
    expect(upload.last().input).toEqual({ kind: "BILL", file: pdf })
    upload.last().resolve(pendingDocument("BILL"))
    await settle()
    expect(actor.getSnapshot().context.document?.status).toBe("PENDING")
    expect(actor.getSnapshot().context.file).toBeNull()
  })

  it("offers no upload while the document waits for review, and shows the server's refusal", async () => {
    const locked = await start(pendingDocument("BILL"))
    locked.actor.send({ type: "CHOOSE", file: file("bill.pdf", "application/pdf", 100) })
    locked.actor.send({ type: "UPLOAD" })
    expect(locked.upload.calls).toHaveLength(0)

    const { actor, upload } = await start()
    actor.send({ type: "CHOOSE", file: file("bill.pdf", "application/pdf", 100) })
    actor.send({ type: "UPLOAD" })
    upload
      .last()
      .reject(new DocumentLocked({ message: "Your document is waiting for review.", status: "PENDING" }))
    await settle()
    expect(actor.getSnapshot().context.error).toBe("Your document is waiting for review.")
  })
})

describe("change password", () => {
  const start = () => {
    const change = controlled<void, { oldPassword: string; newPassword: string; confirmPassword: string }>()
    const { toasts, toast } = toastRecorder()
    const actor = createActor(
      changePasswordMachine.provide({ actors: { change: change.logic }, actions: { toast } }),
    ).start()
    const fill = (oldPassword: string, newPassword: string, confirmPassword = newPassword) => {
      actor.send({ type: "CHANGE", field: "oldPassword", value: oldPassword })
      actor.send({ type: "CHANGE", field: "newPassword", value: newPassword })
      actor.send({ type: "CHANGE", field: "confirmPassword", value: confirmPassword })
    }
    return { actor, change, toasts, fill }
  }

  it("applies the reset form's rules and messages, then requires the current password", () => {
    const { actor, change, fill } = start()
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ form: "Please update values before continue" })
    fill("", "abcdefgh", "abcdefgX")
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({
      confirmPassword: "Password and Confirm password do not match",
    })
    fill("", "difference engine")
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ oldPassword: "Please enter your current password" })
    expect(change.calls).toHaveLength(0)
  })

  it("sends the three fields, empties the form and says the other devices were signed out", async () => {
    const { actor, change, toasts, fill } = start()
    fill("analytical engine", "difference engine")
    actor.send({ type: "SUBMIT" })
    expect(change.last().input).toEqual({
      oldPassword: "analytical engine",
      newPassword: "difference engine",
      confirmPassword: "difference engine",
    })
    change.last().resolve()
    await settle()
    expect(actor.getSnapshot().context).toMatchObject({
      oldPassword: "",
      newPassword: "",
      confirmPassword: "",
    })
    expect(toasts).toEqual([
      { kind: "success", message: "Your password has been changed. Your other devices were signed out." },
    ])
  })

  it("shows a wrong current password and a rejected new one under their fields", async () => {
    const { actor, change, fill } = start()
    fill("wrong password", "difference engine")
    actor.send({ type: "SUBMIT" })
    change.last().reject(new IncorrectPassword({ message: "Wrong password" }))
    await settle()
    expect(actor.getSnapshot().context.errors).toEqual({
      oldPassword: "Your current password is not correct",
    })
    actor.send({ type: "SUBMIT" })
    change.last().reject(new PasswordRejected({ message: "used before" }))
    await settle()
    expect(actor.getSnapshot().context.errors).toEqual({
      newPassword: "Password must be more than 8 characters and not previously been used!",
    })
  })
})

describe("responsible-gaming limits", () => {
  it("sends only what changed, in cents, and says when a raise waits 24 hours", async () => {
    const load = controlled<LoadedSettings, unknown>()
    const save = controlled<ResponsibleGaming, UpdateResponsibleGamingPayload>()
    const { toasts, toast } = toastRecorder()
    const changes: Array<string> = []
    const actor = createActor(
      responsibleGamingMachine.provide({
        actors: { load: load.logic, save: save.logic },
        actions: { toast, announceChange: () => changes.push("ACCOUNT_CHANGED") },
      }),
    ).start()
    load.last().resolve({ settings: fixtureResponsibleGaming, readAt: 0 })
    await settle()
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context.errors).toEqual({ form: "Change a limit or the reality check first" })
    actor.send({ type: "CHANGE_LIMIT", period: "weekly", value: "49,5" })
    actor.send({ type: "SET_REALITY_CHECK", minutes: 45 })
    actor.send({ type: "SAVE" })
    expect(save.last().input).toEqual({ depositLimits: { weekly: "4950" }, realityCheckMinutes: 45 })
    save.last().resolve({
      ...fixtureResponsibleGaming,
      depositLimits: {
        ...fixtureResponsibleGaming.depositLimits,
        weekly: { amount: "4950", pending: null, used: "0", remaining: "4950" },
      },
      realityCheckMinutes: 45,
    })
    await settle()
    expect(actor.getSnapshot().context.inputs.weekly).toBe("49.50")
    expect(toasts).toEqual([{ kind: "success", message: "Your limits are saved" }])
    expect(changes).toEqual(["ACCOUNT_CHANGED"])
  })
})

describe("unsubscribe page", () => {
  it("sends the link's id once, says which address, and retries only after a network failure", async () => {
    const call = controlled<{ message: string; email: string }, string>()
    const actor = createActor(unsubscribeMachine.provide({ actors: { unsubscribe: call.logic } }), {
      input: { id: "abc" },
    }).start()
    expect(call.last().input).toBe("abc")
    call.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().value).toBe("failed")
    actor.send({ type: "RETRY" })
    call.last().resolve({ message: "You are unsubscribed", email: "ada@lovelace.example" })
    await settle()
    expect(actor.getSnapshot().value).toBe("done")
    expect(actor.getSnapshot().context.email).toBe("ada@lovelace.example")
    expect(call.calls).toHaveLength(2)
  })

  it("says the link is not valid, with no retry", async () => {
    const call = controlled<{ message: string; email: string }, string>()
    const actor = createActor(unsubscribeMachine.provide({ actors: { unsubscribe: call.logic } }), {
      input: { id: "nope" },
    }).start()
    call.last().reject(new UnsubscribeLinkInvalid({ message: "not valid" }))
    await settle()
    expect(actor.getSnapshot().value).toBe("invalid")
    actor.send({ type: "RETRY" })
    expect(call.calls).toHaveLength(1)
  })
})
