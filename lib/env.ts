/**
 * Reading a service's settings from its environment, the same way for the casino and every party:
 * blank counts as unset, a bad value throws a `ConfigError` that names the variable and what it
 * should be (a secret's value is never printed), and secrets a service may generate for a
 * developer's machine are kept in its data folder so every restart agrees.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { LogLevel } from "effect"

export type Env = Readonly<Record<string, string | undefined>>

/** A variable with a value the service cannot start with; the message says which and what to set. */
export class ConfigError extends Error {
  override readonly name = "ConfigError"
}

export const invalid = (name: string, value: string, expected: string): never => {
  throw new ConfigError(`${name}=${JSON.stringify(value)} is invalid: expected ${expected}`)
}

export const logLevels: ReadonlyArray<LogLevel.LogLevel> = [
  "All",
  "Trace",
  "Debug",
  "Info",
  "Warn",
  "Error",
  "Fatal",
  "None",
]

/** The variable's trimmed value, or undefined when unset or blank. */
export const text = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim()
  return v === undefined || v === "" ? undefined : v
}

export const int = (env: Env, name: string, def: number, min: number, max: number): number => {
  const v = text(env, name)
  if (v === undefined) return def
  const n = Number(v)
  if (!/^\d+$/.test(v) || n < min || n > max) return invalid(name, v, `an integer between ${min} and ${max}`)
  return n
}

export const port = (env: Env, name: string, def: number): number => int(env, name, def, 0, 65_535)

/** on/off, true/false, yes/no, 1/0. */
export const bool = (env: Env, name: string, def: boolean): boolean => {
  const v = text(env, name)
  if (v === undefined) return def
  const l = v.toLowerCase()
  if (["1", "true", "yes", "on"].includes(l)) return true
  if (["0", "false", "no", "off"].includes(l)) return false
  return invalid(name, v, "on or off")
}

/** The origin of an http(s) URL the variable (named `name`) holds. */
export const originOf = (name: string, value: string): string => {
  try {
    const url = new URL(value)
    if (url.protocol === "http:" || url.protocol === "https:") return url.origin
  } catch {
    // not a URL: refused below
  }
  return invalid(name, value, "an absolute http(s) URL")
}

/** An http(s) URL without its trailing slashes, else `def`. */
export const httpUrl = (env: Env, name: string, def: string): string => {
  const v = text(env, name) ?? def
  originOf(name, v)
  return v.replace(/\/+$/, "")
}

/** A comma list of http(s) URLs, kept as their origins (a pasted page address means its site), else `def`. */
export const origins = (env: Env, name: string, def: ReadonlyArray<string>): ReadonlyArray<string> => {
  const v = text(env, name)
  if (v === undefined) return def
  return v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => originOf(name, s))
}

/** The value that names the embedded database (PGlite in the data folder) explicitly, as unset does. */
export const EMBEDDED_DATABASE = "embedded"

/** Whether the variable says `embedded`: the embedded database chosen, not merely defaulted. */
export const isEmbeddedDatabase = (env: Env, name: string): boolean =>
  text(env, name)?.toLowerCase() === EMBEDDED_DATABASE

/** A PostgreSQL URL, or undefined for the embedded database (the variable unset or `embedded`). */
export const postgresUrl = (env: Env, name: string): string | undefined => {
  if (isEmbeddedDatabase(env, name)) return undefined
  const v = text(env, name)
  if (v !== undefined && !/^postgres(ql)?:\/\//.test(v))
    invalid(name, v, `a postgres:// or postgresql:// URL, or ${EMBEDDED_DATABASE}`)
  return v
}

export const logLevel = (env: Env, name: string, def: LogLevel.LogLevel = "Info"): LogLevel.LogLevel => {
  const v = text(env, name) ?? def
  return logLevels.find((l) => l.toLowerCase() === v.toLowerCase()) ?? invalid(name, v, logLevels.join(", "))
}

/** A secret of at least `min` characters, or undefined when unset (its value is never printed). */
export const secret = (env: Env, name: string, min: number): string | undefined => {
  const v = text(env, name)
  if (v !== undefined && v.length < min) invalid(name, "(hidden)", `at least ${min} characters`)
  return v
}

/** `${dataDir}/${file}`: read, or 32 random bytes (hex, mode 0600) written there on first use. */
export const persistentSecret = (dataDir: string, file = "secret"): string => {
  const path = join(dataDir, file)
  try {
    const existing = readFileSync(path, "utf8").trim()
    if (existing.length >= 32) return existing
  } catch {
    // not there yet
  }
  mkdirSync(dataDir, { recursive: true })
  const value = randomBytes(32).toString("hex")
  writeFileSync(path, `${value}\n`, { mode: 0o600 })
  chmodSync(path, 0o600)
  return value
}
