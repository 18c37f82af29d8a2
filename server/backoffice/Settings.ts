/**
 * The casino's settings as the back office changes them (docs/backoffice.md, "Settings"):
 *
 * - Restricted countries live where the player app and the server already read them: the CDN file
 *   `restricted-countries.json` (the shell fetches it; `Geo` re-reads it when it changes, so an
 *   edit applies without a restart, and an operator may still edit the file by hand).
 * - A game's lobby settings: `enabled` and overrides of `featured` and the order in `games`
 *   (migration 0078; the studios' syncs never write them), and `recommended` as membership of the
 *   CDN's `recommended-games.json` (the lobby's section, resolved against the catalogue, so a
 *   disabled game leaves it too). After a change the lobby in memory is read again (`Games.reload`).
 *
 * Each change writes its one audit row (operator, address, before and after) in a transaction that
 * also holds the settings files' lock; a file is written last, atomically, inside it: a failed write
 * rolls the audit row back. A crash between the file's rename and the commit would leave the file
 * changed without its row — the one gap of a file that is not a table.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { Context, Effect, Layer, Schema } from "effect"
import { BadInput, Conflict, NotFound } from "../../services/backoffice/errors.ts"
import { CdnFiles, RecommendedGames, RestrictedCountries } from "../../services/cdn.ts"
import { json, writeAtomic } from "../cdn/files.ts"
import { AppConfig } from "../config.ts"
import { Games } from "../games/Games.ts"
import { countryName } from "../geo/Geo.ts"
import { OperatorAudit } from "../operator/Audit.ts"
import type { Actor } from "./Backoffice.ts"
import { type GameSettingChange, type GameSettingRow, SettingsRepo } from "./SettingsRepo.ts"

export interface RestrictedCountryView {
  readonly code: string
  readonly name: string
}

export interface GameSettingView {
  readonly id: string
  readonly name: string
  readonly provider: string
  readonly category: string
  readonly enabled: boolean
  readonly featured: boolean
  readonly recommended: boolean
  readonly order: number
}

export interface GamePatch extends GameSettingChange {
  readonly recommended?: boolean | undefined
}

export interface SettingsShape {
  readonly countries: () => Effect.Effect<ReadonlyArray<RestrictedCountryView>>
  readonly addCountry: (
    actor: Actor,
    code: string,
  ) => Effect.Effect<ReadonlyArray<RestrictedCountryView>, NotFound | Conflict>
  readonly removeCountry: (
    actor: Actor,
    code: string,
  ) => Effect.Effect<ReadonlyArray<RestrictedCountryView>, NotFound>
  readonly games: () => Effect.Effect<ReadonlyArray<GameSettingView>>
  readonly updateGame: (
    actor: Actor,
    id: string,
    patch: GamePatch,
  ) => Effect.Effect<GameSettingView, BadInput | NotFound>
}

const auditOf = (actor: Actor) => ({
  actor: actor.label,
  operatorId: actor.operatorId,
  operatorEmail: actor.email,
  ip: actor.ip,
})

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const repo = yield* SettingsRepo
  const audit = yield* OperatorAudit
  const lobby = yield* Games

  /** A settings file decoded; a missing file is the empty list (as `Geo` reads it). */
  const readList = <S extends Schema.Codec<ReadonlyArray<unknown>, unknown>>(name: string, schema: S) =>
    Effect.tryPromise({
      try: () => readFile(join(config.cdnDir, name), "utf8"),
      catch: (e) => e,
    }).pipe(
      Effect.catch((e) =>
        typeof e === "object" && e !== null && Reflect.get(e, "code") === "ENOENT"
          ? Effect.succeed("[]")
          : Effect.die(e),
      ),
      Effect.flatMap((text) =>
        Effect.try({ try: () => JSON.parse(text) as unknown, catch: (e) => e }).pipe(Effect.orDie),
      ),
      Effect.flatMap((raw) => Effect.orDie(Schema.decodeUnknownEffect(schema)(raw))),
    ) as Effect.Effect<S["Type"]>

  const writeList = <S extends Schema.Codec<ReadonlyArray<unknown>, unknown>>(
    name: string,
    schema: S,
    value: S["Type"],
  ) =>
    Effect.flatMap(Effect.orDie(Schema.encodeEffect(schema)(value)), (encoded) =>
      Effect.promise(() => writeAtomic(join(config.cdnDir, name), json(encoded))),
    )

  const restricted = readList(CdnFiles.restrictedCountries, RestrictedCountries)
  const recommended = readList(CdnFiles.recommendedGames, RecommendedGames)
  const viewOf = (list: RestrictedCountries): ReadonlyArray<RestrictedCountryView> =>
    list.map((c) => ({ code: c.code.trim().toUpperCase(), name: countryName(c.code.trim()) }))

  const countries = () => Effect.map(restricted, viewOf)

  const changeCountries = (
    actor: Actor,
    raw: string,
    action: "countries.add" | "countries.remove",
  ): Effect.Effect<ReadonlyArray<RestrictedCountryView>, NotFound | Conflict> => {
    const code = raw.trim().toUpperCase()
    return repo
      .transaction(
        Effect.gen(function* () {
          yield* repo.lockFiles
          const before = yield* restricted
          const codes = before.map((c) => c.code.trim().toUpperCase())
          let after: RestrictedCountries
          if (action === "countries.add") {
            if (!(yield* repo.isCountry(code)))
              return yield* new NotFound({ message: `${code} is not a country of the list.` })
            if (codes.includes(code))
              return yield* new Conflict({
                message: `${code} is already restricted.`,
                reason: "NothingToChange",
              })
            after = [...before, { code }]
          } else {
            if (!codes.includes(code)) return yield* new NotFound({ message: `${code} is not restricted.` })
            after = before.filter((c) => c.code.trim().toUpperCase() !== code)
          }
          yield* audit.record({
            ...auditOf(actor),
            action,
            userId: null,
            subject: code,
            details: { country: code },
            before: codes,
            after: after.map((c) => c.code.trim().toUpperCase()),
          })
          yield* writeList(CdnFiles.restrictedCountries, RestrictedCountries, after)
          return viewOf(after)
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  }

  const withRecommended = (row: GameSettingRow, ids: ReadonlySet<string>): GameSettingView => ({
    ...row,
    recommended: ids.has(row.id),
  })

  const games = () =>
    Effect.gen(function* () {
      const ids = new Set((yield* recommended).map((r) => r.id))
      return (yield* Effect.orDie(repo.games)).map((row) => withRecommended(row, ids))
    })

  const updateGame = (actor: Actor, id: string, patch: GamePatch) =>
    Effect.gen(function* () {
      if (Object.values(patch).every((v) => v === undefined))
        return yield* new BadInput({ message: "Give enabled, featured, recommended or order." })
      const view = yield* repo
        .transaction(
          Effect.gen(function* () {
            yield* repo.lockFiles
            const row = yield* repo.lockGame(id)
            if (row === undefined) return yield* new NotFound({ message: `No game ${id} in the catalogue.` })
            const list = yield* recommended
            const before = withRecommended(row, new Set(list.map((r) => r.id)))
            yield* repo.updateGame(id, patch)
            const updated = yield* repo.lockGame(id)
            if (updated === undefined) return yield* Effect.die(new Error("game row vanished"))
            const after = { ...updated, recommended: patch.recommended ?? before.recommended }
            yield* audit.record({
              ...auditOf(actor),
              action: "games.update",
              userId: null,
              subject: id,
              details: { game: id },
              before,
              after,
            })
            if (after.recommended !== before.recommended)
              yield* writeList(
                CdnFiles.recommendedGames,
                RecommendedGames,
                after.recommended
                  ? [...list, { id, name: row.name, provider: row.provider, category: row.category }]
                  : list.filter((r) => r.id !== id),
              )
            return after
          }),
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
      yield* lobby.reload()
      return view
    })

  return Settings.of({
    countries,
    addCountry: (actor, code) => changeCountries(actor, code, "countries.add"),
    removeCountry: (actor, code) =>
      changeCountries(actor, code, "countries.remove") as Effect.Effect<
        ReadonlyArray<RestrictedCountryView>,
        NotFound
      >,
    games,
    updateGame,
  })
})

export class Settings extends Context.Service<Settings, SettingsShape>()(
  "casino/server/backoffice/Settings",
) {
  static readonly layer = Layer.effect(Settings, make).pipe(Layer.provide(SettingsRepo.layer))
}
