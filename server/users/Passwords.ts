/**
 * Password hashing: argon2id (m = 19456 KiB, t = 2, p = 1 — the OWASP baseline) via @node-rs/argon2.
 * `verifyDummy` burns the same time as a real check, so sign-in with an unknown e-mail cannot be
 * told apart from a wrong password by timing.
 */
import { hash, verify } from "@node-rs/argon2"
import { Context, Effect, Layer } from "effect"

const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export interface PasswordsShape {
  readonly hash: (password: string) => Effect.Effect<string>
  /** False for a wrong password and for a malformed stored hash. */
  readonly verify: (storedHash: string, password: string) => Effect.Effect<boolean>
  /** Verifies against a throw-away hash and always answers false. */
  readonly verifyDummy: (password: string) => Effect.Effect<false>
}

const make = Effect.gen(function* () {
  const hashPassword = Effect.fn("Passwords.hash")((password: string) =>
    Effect.promise(() => hash(password, OPTIONS)),
  )
  const verifyPassword = Effect.fn("Passwords.verify")((storedHash: string, password: string) =>
    Effect.promise(() => verify(storedHash, password).catch(() => false)),
  )
  const dummyHash = yield* hashPassword("dummy password that no account uses")
  const verifyDummy = Effect.fn("Passwords.verifyDummy")(function* (password: string) {
    yield* verifyPassword(dummyHash, password)
    return false as const
  })
  return { hash: hashPassword, verify: verifyPassword, verifyDummy } satisfies PasswordsShape
})

export class Passwords extends Context.Service<Passwords, PasswordsShape>()("casino/server/Passwords") {
  static readonly layer = Layer.effect(Passwords, make)
}
