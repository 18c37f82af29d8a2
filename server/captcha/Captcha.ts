/**
 * Self-hosted ALTCHA (altcha-lib v2) proof-of-work captcha.
 *
 * - `challenge` signs a fresh PBKDF2/SHA-256 challenge (cost = `CAPTCHA_COST` iterations, random
 *   16-byte nonce and salt, key prefix `00`, expiry 10 minutes) with HMAC-SHA-256 (`captchaSecret`).
 * - `verify` takes what the `altcha` widget (3.x) puts in its form field: base64 of
 *   `JSON.stringify({ challenge: { parameters, signature }, solution: { counter, derivedKey, time } })`.
 *   It checks expiry, the signature (so the parameters are ours) and the solution, then records the
 *   challenge signature in `captcha_uses` with an atomic `INSERT … ON CONFLICT DO NOTHING`: a
 *   second use of the same solved challenge is refused as "replayed".
 * - With `CAPTCHA=off` (refused in production by the config) `verify` accepts anything.
 */

import { createChallenge, verifySolution } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { AccountMessages } from "../../services/account-rules.ts"
import { CaptchaFailed } from "../../services/errors.ts"
import type { CaptchaChallenge } from "../../services/user-service.ts"
import { AppConfig } from "../config.ts"

export const CAPTCHA_ALGORITHM = "PBKDF2/SHA-256"
export const CHALLENGE_TTL_SECONDS = 600

export type CaptchaFailure = CaptchaFailed["reason"]

/** The widget's payload, decoded. Extra fields are ignored; the parameters are covered by the signature. */
const WidgetPayload = Schema.Struct({
  challenge: Schema.Struct({
    parameters: Schema.Struct({
      algorithm: Schema.String,
      nonce: Schema.String,
      salt: Schema.String,
      cost: Schema.Number,
      keyLength: Schema.Number,
      keyPrefix: Schema.String,
      keySignature: Schema.optionalKey(Schema.String),
      memoryCost: Schema.optionalKey(Schema.Number),
      parallelism: Schema.optionalKey(Schema.Number),
      expiresAt: Schema.optionalKey(Schema.Number),
      data: Schema.optionalKey(
        Schema.Record(
          Schema.String,
          Schema.Union([Schema.String, Schema.Number, Schema.Boolean, Schema.Null]),
        ),
      ),
    }),
    signature: Schema.String,
  }),
  solution: Schema.Struct({
    counter: Schema.Number,
    derivedKey: Schema.String,
    time: Schema.optionalKey(Schema.Number),
  }),
})
type WidgetPayload = typeof WidgetPayload.Type

const decodePayload = Schema.decodeUnknownOption(WidgetPayload)

/** base64 (standard or url-safe) → JSON → payload; undefined for anything else. */
export const parseCaptchaPayload = (raw: string): WidgetPayload | undefined => {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) return undefined
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(raw, "base64").toString("utf8"))
  } catch {
    return undefined
  }
  const decoded = decodePayload(json)
  return decoded._tag === "Some" ? decoded.value : undefined
}

export interface CaptchaShape {
  readonly challenge: Effect.Effect<CaptchaChallenge>
  readonly verify: (payload: string) => Effect.Effect<void, CaptchaFailed>
}

const failure = (reason: CaptchaFailure) =>
  new CaptchaFailed({ message: AccountMessages.captchaRequired, reason })

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const sql = yield* SqlClient.SqlClient

  const challenge = Effect.promise(() =>
    createChallenge({
      algorithm: CAPTCHA_ALGORITHM,
      cost: config.captchaCost,
      keyLength: 32,
      keyPrefix: "00",
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS,
      hmacSignatureSecret: config.captchaSecret,
    }),
  ).pipe(
    Effect.map(
      (c): CaptchaChallenge => ({
        parameters: c.parameters,
        ...(c.signature === undefined ? {} : { signature: c.signature }),
      }),
    ),
    Effect.withSpan("Captcha.challenge"),
  )

  const verify = Effect.fn("Captcha.verify")(function* (raw: string) {
    if (!config.captchaEnabled) return
    const trimmed = raw.trim()
    if (trimmed === "") return yield* failure("missing")
    const payload = parseCaptchaPayload(trimmed)
    if (payload === undefined) return yield* failure("invalid")
    const { parameters, signature } = payload.challenge
    if (parameters.algorithm !== CAPTCHA_ALGORITHM) return yield* failure("invalid")
    const result = yield* Effect.promise(() =>
      verifySolution({
        challenge: { parameters, signature },
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: config.captchaSecret,
      }).catch(() => undefined),
    )
    if (result === undefined) return yield* failure("invalid")
    if (result.expired) return yield* failure("expired")
    if (!result.verified) return yield* failure("invalid")
    // Every challenge we sign carries an expiry; the signature proves this one is ours.
    const expiresAt = parameters.expiresAt ?? Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS
    const inserted = yield* sql<{ readonly challenge_key: string }>`
      INSERT INTO captcha_uses (challenge_key, expires_at)
      VALUES (${signature}, to_timestamp(${expiresAt}))
      ON CONFLICT (challenge_key) DO NOTHING
      RETURNING challenge_key
    `.pipe(Effect.orDie)
    if (inserted.length === 0) return yield* failure("replayed")
    // Keep the replay table small: a used challenge can be forgotten once it has expired anyway.
    yield* sql`DELETE FROM captcha_uses WHERE expires_at < now() - interval '1 minute'`.pipe(
      Effect.catchCause((cause) => Effect.logWarning("captcha_uses sweep failed", cause)),
    )
  })

  return { challenge, verify } satisfies CaptchaShape
})

export class Captcha extends Context.Service<Captcha, CaptchaShape>()("casino/server/Captcha") {
  static readonly layer = Layer.effect(Captcha, make)
}
