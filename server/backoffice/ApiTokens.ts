/**
 * Operators' API tokens (docs/backoffice.md, "API tokens"); the SQL is ./ApiTokensRepo.ts.
 *
 * - A token is made from a browser session that passed the password and the second factor (the
 *   contract marks `createToken` SessionOnly), so it is never a way around TOTP; it is shown once
 *   and only its SHA-256 is kept.
 * - It acts as its operator, with the operator's role as it is at each call: a role change applies
 *   at once, a disabled operator's tokens stop working, and a reset or the operator's own password
 *   change ends them. It cannot make a token, change a password or manage operators (SessionOnly).
 * - It has no idle limit (a script runs weekly) but an end: BACKOFFICE_TOKEN_DAYS, or fewer days
 *   chosen at creation.
 * - Making and ending one is audited like every change.
 */
import { Context, Effect, Layer, Option } from "effect"
import { BadInput, TokenNotFound } from "../../services/backoffice/errors.ts"
import type { SignedInOperator } from "../../services/backoffice/middleware.ts"
import type { ApiToken } from "../../services/backoffice/operators.ts"
import { can } from "../../services/backoffice/permissions.ts"
import { AppConfig } from "../config.ts"
import { hashToken, newToken } from "../users/tokens.ts"
import { ApiTokensRepo, type TokenRow } from "./ApiTokensRepo.ts"
import { type Actor, actorOf, operatorView } from "./Backoffice.ts"
import { OperatorsRepo } from "./OperatorsRepo.ts"

/** The prefix tells a back-office token from any other secret (and lets secret scanners find one). */
export const API_TOKEN_PREFIX = "bo_"
const tokenPattern = /^bo_[A-Za-z0-9_-]{43}$/
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** A token's last use is written at most this often: a script's burst of calls is not a burst of writes. */
const TOUCH_EVERY_MS = 60_000

const iso = (ms: number) => new Date(ms).toISOString()
const isoOrNull = (d: Date | null) => (d === null ? null : new Date(d).toISOString())

export const tokenView = (row: TokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  expiresAt: new Date(row.expires_at).toISOString(),
  lastUsedAt: isoOrNull(row.last_used_at),
  lastUsedIp: row.last_used_ip,
  revokedAt: isoOrNull(row.revoked_at),
})

export interface ApiTokensShape {
  readonly list: (current: SignedInOperator) => Effect.Effect<ReadonlyArray<ApiToken>>
  readonly create: (
    current: SignedInOperator,
    input: { readonly name: string; readonly days?: number | undefined },
  ) => Effect.Effect<{ readonly token: string; readonly apiToken: ApiToken }, BadInput>
  /** Ends one of the caller's tokens, or anyone's for an operator who manages operators. */
  readonly revoke: (current: SignedInOperator, id: string) => Effect.Effect<ApiToken, TokenNotFound>
  /** The operator a bearer token acts as, or none (unknown, revoked, expired, operator disabled). */
  readonly resolve: (bearer: string, ip: string) => Effect.Effect<Option.Option<Omit<SignedInOperator, "ip">>>
}

const make = Effect.gen(function* () {
  const repo = yield* ApiTokensRepo
  const operators = yield* OperatorsRepo
  const config = yield* AppConfig
  const nowMs = () => config.backofficeClock()

  const audit = (actor: Actor, action: string, subject: string, before: unknown, after: unknown) =>
    operators.writeAudit({ ...actor, action, subject, before, after })

  const list = Effect.fn("ApiTokens.list")(function* (current: SignedInOperator) {
    return (yield* repo.listOf(current.operator.id).pipe(Effect.orDie)).map(tokenView)
  })

  const create = Effect.fn("ApiTokens.create")(function* (
    current: SignedInOperator,
    input: { readonly name: string; readonly days?: number | undefined },
  ) {
    const name = input.name.trim()
    if (name === "" || name.length > 100)
      return yield* new BadInput({ message: "Name the token (1 to 100 characters) to recognise it later." })
    const days = Math.min(input.days ?? config.backofficeTokenDays, config.backofficeTokenDays)
    const token = `${API_TOKEN_PREFIX}${newToken()}`
    const now = nowMs()
    const row = yield* operators
      .withTransaction(
        Effect.gen(function* () {
          const inserted = yield* repo.insert({
            tokenHash: hashToken(token),
            operatorId: current.operator.id,
            name,
            nowIso: iso(now),
            expiresIso: iso(now + days * 86_400_000),
          })
          if (inserted === undefined)
            return yield* Effect.die(new Error("INSERT backoffice_api_tokens returned no row"))
          yield* audit(actorOf(current), "tokens.create", inserted.id, null, tokenView(inserted))
          return inserted
        }),
      )
      .pipe(Effect.orDie)
    return { token, apiToken: tokenView(row) }
  })

  const revoke = Effect.fn("ApiTokens.revoke")(function* (current: SignedInOperator, id: string) {
    const notFound = new TokenNotFound({ message: "No live API token of yours has this id." })
    if (!uuidPattern.test(id)) return yield* notFound
    return yield* operators
      .withTransaction(
        Effect.gen(function* () {
          const found = yield* repo.find(id)
          const mayEnd =
            found !== undefined &&
            (found.operator_id === current.operator.id || can(current.operator.role, "operators.manage"))
          if (!mayEnd || found.revoked_at !== null) return yield* notFound
          const ended = yield* repo.revoke(id, iso(nowMs()))
          if (ended === undefined) return yield* notFound
          yield* audit(actorOf(current), "tokens.revoke", id, tokenView(found), tokenView(ended))
          return tokenView(ended)
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const resolve = Effect.fn("ApiTokens.resolve")(function* (bearer: string, ip: string) {
    const now = nowMs()
    const row = tokenPattern.test(bearer)
      ? yield* repo.findLive(hashToken(bearer), iso(now)).pipe(Effect.orDie)
      : undefined
    if (row === undefined) {
      // Guessing one is hopeless (256 bits); a refused token is logged for whoever watches the logs.
      yield* Effect.logWarning(`back office: an API token was refused from ${ip}`)
      return Option.none()
    }
    if (row.last_used_at === null || now - new Date(row.last_used_at).getTime() >= TOUCH_EVERY_MS)
      yield* repo.touch(row.token_id, iso(now), ip).pipe(Effect.orDie)
    return Option.some({
      sessionId: row.token_id,
      via: { kind: "token", name: row.token_name } as const,
      operator: operatorView(row),
    })
  })

  return { list, create, revoke, resolve } satisfies ApiTokensShape
})

export class ApiTokens extends Context.Service<ApiTokens, ApiTokensShape>()("casino/server/ApiTokens") {
  /** Needs `Backoffice.layer`'s repositories (it provides both). */
  static readonly layer = Layer.effect(ApiTokens, make)
}
