/**
 * Reads reused until stale (spec section 9: a query is stale after 5 minutes). A screen the player
 * comes back to (the lobby after the account, the profile after the lobby) shows what was read a
 * moment ago instead of asking the server again: every such request is load the casino carries at
 * its peak, and none of it is news to the player.
 *
 * Only answers are kept, never failures: a section that failed is asked again next time. A write the
 * player makes replaces or forgets the read it changes (`set`, `forget`); what is live (a balance,
 * the jackpots) is not read through here, or is read `fresh`. A player's own reads are dropped when
 * the session changes hands (`forgetPlayerQueries`), so nobody ever sees another's data.
 */
import { Clock, Effect } from "effect"
import { Constants } from "./rules.ts"

/** `public`: the same for everyone (catalogue, CDN files); `player`: this session's own. */
export type QueryScope = "public" | "player"

export interface QueryOptions {
  readonly scope: QueryScope
  /** How long an answer is reused; the spec's 5 minutes unless the data is livelier. */
  readonly staleMs?: number
}

interface Entry<A> {
  readonly value: A
  readonly at: number
}

/** One read whose answer depends on a key (the catalogue's currency); a plain read has one key. */
export interface KeyedQuery<K, A, E> {
  /** The answer kept for `key` if not stale, else the server's (then kept). */
  readonly read: (key: K) => Effect.Effect<A, E>
  /** The server's answer, always (then kept): for a read the player asked to be current. */
  readonly fresh: (key: K) => Effect.Effect<A, E>
  /** The player's own write answered with the new value: keep it as if just read. */
  readonly set: (key: K, value: A) => Effect.Effect<void>
  readonly forget: () => void
}

export interface Query<A, E> {
  readonly read: Effect.Effect<A, E>
  readonly fresh: Effect.Effect<A, E>
  readonly set: (value: A) => Effect.Effect<void>
  readonly forget: () => void
}

interface Registered {
  readonly scope: QueryScope
  readonly forget: () => void
}

const registry = new Set<Registered>()

export const keyedQuery = <K, A, E>(
  load: (key: K) => Effect.Effect<A, E>,
  options: QueryOptions,
): KeyedQuery<K, A, E> => {
  const staleMs = options.staleMs ?? Constants.queryStaleMs
  const entries = new Map<string, Entry<A>>()
  const keep = (key: K, value: A) =>
    Effect.map(Clock.currentTimeMillis, (at) => void entries.set(String(key), { value, at }))
  const fresh = (key: K) => Effect.tap(load(key), (value) => keep(key, value))
  const read = (key: K) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const kept = entries.get(String(key))
      return kept !== undefined && now - kept.at < staleMs ? Effect.succeed(kept.value) : fresh(key)
    })
  const forget = () => entries.clear()
  registry.add({ scope: options.scope, forget })
  return { read, fresh, set: keep, forget }
}

export const query = <A, E>(load: Effect.Effect<A, E>, options: QueryOptions): Query<A, E> => {
  const keyed = keyedQuery((_: "") => load, options)
  return {
    read: keyed.read(""),
    fresh: keyed.fresh(""),
    set: (value) => keyed.set("", value),
    forget: keyed.forget,
  }
}

/** The session ended or changed hands: nothing of the last player's is shown to the next. */
export const forgetPlayerQueries = (): void => {
  for (const q of registry) if (q.scope === "player") q.forget()
}

/** Everything read is forgotten (tests start each case from an empty cache). */
export const forgetAllQueries = (): void => {
  for (const q of registry) q.forget()
}
