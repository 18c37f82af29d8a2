/**
 * Each command as calls of the back-office API, made as the token's operator: the server checks
 * the role and writes the audit (`token:<e-mail> (<token name>)`). What a command returns is what
 * ./output.ts prints; a refusal fails with the contract's error.
 */
import { Effect } from "effect"
import type { AuditEntry } from "../../services/backoffice/operators.ts"
import type { Client } from "./client.ts"
import { Refused } from "./client.ts"
import type { Command, DocumentKind, DocumentRef } from "./parse.ts"

/**
 * The payload without its absent fields: the derived client encodes an `undefined` optional field
 * as null, which the promotion endpoints read as "clear it".
 */
const present = <T extends object>(payload: T): T =>
  Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined)) as T

const kindName = (kind: DocumentKind) => (kind === "identity" ? "identity" : "proof-of-address")

/** The player with exactly this e-mail (any case), from the players search. */
const playerByEmail = (client: Client, email: string) =>
  Effect.gen(function* () {
    const { players } = yield* client.players.searchPlayers({ query: { q: email } })
    const player = players.find((p) => p.email.toLowerCase() === email.toLowerCase())
    if (player === undefined)
      return yield* new Refused({
        error: "UnknownPlayer",
        message: `There is no player with the e-mail ${email}.`,
      })
    return player
  })

/** The id of the document a decision is about: given, or the player's pending one of that kind. */
const pendingDocument = (client: Client, ref: DocumentRef) =>
  Effect.gen(function* () {
    if ("documentId" in ref) return ref.documentId
    const { documents } = yield* client.kyc.kycQueue()
    const email = ref.email.toLowerCase()
    const waiting = documents.find((d) => d.email.toLowerCase() === email && d.kind === ref.kind)
    if (waiting !== undefined) return waiting.id
    // Not in the queue: say whether the player is unknown or has nothing of that kind waiting.
    const player = yield* playerByEmail(client, ref.email)
    return yield* new Refused({
      error: "NothingPending",
      message: `${player.email} has no ${kindName(ref.kind)} document waiting for review.`,
    })
  })

/** The audit, newest first, across as many pages of 200 as the limit asks. */
const auditEntries = (client: Client, limit: number) =>
  Effect.gen(function* () {
    const entries: Array<AuditEntry> = []
    let before: string | undefined
    while (entries.length < limit) {
      const page = yield* client.operators.audit({
        query: { limit: Math.min(200, limit - entries.length), before },
      })
      entries.push(...page.entries)
      if (page.next === null) break
      before = page.next
    }
    return { entries }
  })

export const runCommand = (
  client: Client,
  command: Exclude<Command, { _tag: "login" | "logout" }>,
): Effect.Effect<unknown, unknown> => {
  const c = command
  switch (c._tag) {
    case "whoami":
      return client.session.me()
    case "pending":
      return client.kyc.kycQueue()
    case "show":
      return Effect.gen(function* () {
        const player = yield* playerByEmail(client, c.email)
        const page = yield* client.players.getPlayer({ params: { id: player.id } })
        return { email: player.email, id: page.documents.id, bill: page.documents.bill }
      })
    case "approve":
      return Effect.flatMap(pendingDocument(client, c.document), (id) =>
        client.kyc.kycApprove({ params: { id } }),
      )
    case "reject":
      return Effect.flatMap(pendingDocument(client, c.document), (id) =>
        client.kyc.kycReject({ params: { id }, payload: { reason: c.reason } }),
      )
    case "audit":
      return auditEntries(client, c.limit)
    case "ratesList":
      return client.settings.listRates()
    case "ratesSet":
      return client.settings.setRate({
        params: { currency: c.currency },
        payload: present({
          eurRate: c.eurRate,
          minDeposit: c.minDeposit,
          minPromotion: c.minPromotion,
          minWithdraw: c.minWithdraw,
        }),
      })
    case "withdrawalsList":
      return client.withdrawals.withdrawalQueue({ query: { limit: c.limit } })
    case "withdrawalApprove":
      return client.withdrawals.withdrawalApprove({ params: { id: c.id } })
    case "withdrawalReject":
      return client.withdrawals.withdrawalReject({ params: { id: c.id }, payload: { reason: c.reason } })
    case "withdrawalMarkSent":
      return client.withdrawals.withdrawalMarkSent({ params: { id: c.id }, payload: { txHash: c.txHash } })
    case "withdrawalMarkPaid":
      return client.withdrawals.withdrawalMarkPaid({ params: { id: c.id } })
    case "promotionsList":
      return client.settings.listPromotions()
    case "promotionsShow":
      return client.settings.showPromotion({ params: { id: c.id } })
    case "promotionsCreate":
      return client.settings.createPromotion({ payload: present(c.input) })
    case "promotionsUpdate":
      return client.settings.updatePromotion({ params: { id: c.id }, payload: present(c.changes) })
    case "promotionsSetActive":
      return client.settings.setPromotionActive({ params: { id: c.id }, payload: { active: c.active } })
    case "operatorsList":
      return client.operators.listOperators()
    case "operatorsAdd":
      return client.operators.createOperator({ payload: { email: c.email, name: c.name, role: c.role } })
  }
}
