/**
 * The casino's settings: promotions, the games' lobby settings, restricted countries, rates and
 * minimums. Each list is a `useResource`, each change a `useAction` whose refusal shows the server's
 * message; amounts go as the API expects them (minimums in integer minor units, the EUR rate and the
 * promotions' EUR amounts as exact decimal text — never a float).
 */
import type { Effect } from "effect"
import { type FormEvent, useId, useState } from "react"
import { settingsClient } from "../../services/backoffice/clients/settings.ts"
import type { GameSetting, Promotion, PromotionChanges, Rate } from "../../services/backoffice/settings.ts"
import { type Action, useAction, useResource } from "./actors.tsx"
import { majorOf, minorOf } from "./amount.ts"
import { money, when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./reports.css"

type GameSettingT = typeof GameSetting.Type
type PromotionT = typeof Promotion.Type
type RateT = typeof Rate.Type

/**
 * A change from a button or a form that may be made again: the action machine's `done` takes no
 * SUBMIT (it waits for DISMISS), so a finished change is dismissed first.
 */
const submitAgain = (action: Action, run: () => Effect.Effect<unknown, unknown>): void => {
  if (action.state === "done") action.dismiss()
  action.submit(run)
}

const Failure = ({ action }: { readonly action: Action }) =>
  action.error ? (
    <p className="bo-error" role="alert">
      {action.error}
    </p>
  ) : null

// ── Games ───────────────────────────────────────────────────────────────────────────────────────

const GameRow = ({ game, onChanged }: { readonly game: GameSettingT; readonly onChanged: () => void }) => {
  const action = useAction(onChanged)
  const busy = action.state === "submitting"
  const patch = (payload: { enabled?: boolean; featured?: boolean; recommended?: boolean; order?: number }) =>
    submitAgain(action, () => settingsClient.updateGame({ params: { id: game.id }, payload }))
  const saveOrder = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const order = Number(new FormData(event.currentTarget).get("order"))
    if (Number.isInteger(order) && order !== game.order) patch({ order })
  }
  const toggle = (field: "enabled" | "featured" | "recommended", label: string) => (
    <td>
      <button
        type="button"
        className={game[field] ? "bo-button bo-switch bo-switch--on" : "bo-button bo-switch"}
        aria-pressed={game[field]}
        disabled={busy}
        onClick={() => patch({ [field]: !game[field] })}
      >
        <span aria-hidden="true">{game[field] ? "On" : "Off"}</span>
        <span className="visually-hidden">
          {label} {game.name}
        </span>
      </button>
    </td>
  )
  return (
    <tr>
      <td>
        {game.name}
        <div className="bo-muted bo-mono">{game.id}</div>
      </td>
      <td>{game.provider}</td>
      <td>{game.category}</td>
      {toggle("enabled", "Enabled:")}
      {toggle("featured", "Featured:")}
      {toggle("recommended", "Recommended:")}
      <td>
        <form className="bo-row" onSubmit={saveOrder}>
          <label className="visually-hidden" htmlFor={`order-${game.id}`}>
            Order of {game.name}
          </label>
          <input
            id={`order-${game.id}`}
            name="order"
            type="number"
            min={0}
            max={1_000_000_000}
            step={1}
            defaultValue={game.order}
            key={game.order}
          />
          <button type="submit" className="bo-button" disabled={busy}>
            Save<span className="visually-hidden"> order of {game.name}</span>
          </button>
        </form>
        <Failure action={action} />
      </td>
    </tr>
  )
}

export const GamesScreen = () => {
  const games = useResource(() => settingsClient.listGames())
  const [search, setSearch] = useState("")
  const term = search.trim().toLowerCase()
  const shown = (games.data?.games ?? []).filter(
    (g) =>
      term === "" ||
      g.name.toLowerCase().includes(term) ||
      g.id.includes(term) ||
      g.provider.toLowerCase().includes(term),
  )
  return (
    <>
      <ScreenHeader title="Games" refresh={games.refresh} refreshing={games.refreshing}>
        <label className="bo-inline-label">
          Find a game
          <input type="search" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
        </label>
      </ScreenHeader>
      <p className="bo-muted">
        A disabled game leaves the lobby and cannot be launched. Lower order comes first in the lobby.
      </p>
      <ResourceState {...games} />
      {games.data && shown.length === 0 && <p className="bo-notice">No game matches “{search}”.</p>}
      {shown.length > 0 && (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <caption className="visually-hidden">Games in the lobby</caption>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Provider</th>
                <th scope="col">Category</th>
                <th scope="col">Enabled</th>
                <th scope="col">Featured</th>
                <th scope="col">Recommended</th>
                <th scope="col">Order</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((g) => (
                <GameRow key={g.id} game={g} onChanged={games.refresh} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}

// ── Countries ───────────────────────────────────────────────────────────────────────────────────

const CountryRow = ({
  country,
  onChanged,
}: {
  readonly country: { readonly code: string; readonly name: string }
  readonly onChanged: () => void
}) => {
  const action = useAction(onChanged)
  const confirming = action.state === "editing" || action.state === "submitting"
  return (
    <tr>
      <td className="bo-mono">{country.code}</td>
      <td>{country.name}</td>
      <td>
        {confirming ? (
          <fieldset className="bo-confirm">
            <legend>Players from {country.name} will be able to register and play. Remove?</legend>
            <button
              type="button"
              className="bo-button bo-button--danger"
              disabled={action.state === "submitting"}
              onClick={() =>
                action.submit(() => settingsClient.removeCountry({ params: { code: country.code } }))
              }
            >
              Yes, remove {country.code}
            </button>
            <button type="button" className="bo-button" onClick={action.cancel}>
              Keep
            </button>
          </fieldset>
        ) : (
          <button type="button" className="bo-button" onClick={action.open}>
            Remove<span className="visually-hidden"> {country.name}</span>
          </button>
        )}
        <Failure action={action} />
      </td>
    </tr>
  )
}

export const CountriesScreen = () => {
  const countries = useResource(() => settingsClient.listCountries())
  const add = useAction(countries.refresh)
  const errorId = useId()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const code = String(new FormData(form).get("code") ?? "")
      .trim()
      .toUpperCase()
    submitAgain(add, () => settingsClient.addCountry({ payload: { code } }))
    form.reset()
  }
  const list = countries.data?.countries ?? []
  return (
    <>
      <ScreenHeader
        title="Restricted countries"
        refresh={countries.refresh}
        refreshing={countries.refreshing}
      />
      <section className="bo-card" aria-labelledby="add-country">
        <h2 id="add-country">Restrict a country</h2>
        <p className="bo-muted">
          Players in a restricted country cannot register or play. The change applies at once.
        </p>
        <form className="bo-form-row" onSubmit={submit} aria-describedby={add.error ? errorId : undefined}>
          <label>
            ISO country code
            <input
              name="code"
              required
              minLength={2}
              maxLength={2}
              pattern="[A-Za-z]{2}"
              autoComplete="off"
              placeholder="e.g. FR"
            />
          </label>
          <button
            type="submit"
            className="bo-button bo-button--primary"
            disabled={add.state === "submitting"}
          >
            Add
          </button>
        </form>
        {add.error && (
          <p id={errorId} className="bo-error" role="alert">
            {add.error}
          </p>
        )}
      </section>
      <ResourceState {...countries} />
      {countries.data && list.length === 0 && <p className="bo-notice">No country is restricted.</p>}
      {list.length > 0 && (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <caption className="visually-hidden">Restricted countries</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Country</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <CountryRow key={c.code} country={c} onChanged={countries.refresh} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}

// ── Rates ───────────────────────────────────────────────────────────────────────────────────────

const minimums = [
  ["minDeposit", "Minimum deposit"],
  ["minPromotion", "Minimum for a promotion"],
  ["minWithdraw", "Minimum withdrawal"],
] as const

const RateRow = ({ rate, onChanged }: { readonly rate: RateT; readonly onChanged: () => void }) => {
  const action = useAction(onChanged)
  const [invalid, setInvalid] = useState<string | null>(null)
  const editing = action.state === "editing" || action.state === "submitting" || action.state === "failed"
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const payload: { eurRate?: string; minDeposit?: string; minPromotion?: string; minWithdraw?: string } = {}
    const eurRate = String(data.get("eurRate") ?? "").trim()
    if (eurRate !== rate.eurRate) payload.eurRate = eurRate
    for (const [field, label] of minimums) {
      const minor = minorOf(String(data.get(field) ?? ""), rate.currency)
      if (minor === null) {
        setInvalid(
          `${label}: an amount in ${rate.currency} (at most its decimals), e.g. ${majorOf(rate[field], rate.currency)}`,
        )
        return
      }
      if (minor !== rate[field]) payload[field] = minor
    }
    setInvalid(null)
    if (Object.keys(payload).length === 0) {
      action.cancel()
      return
    }
    action.submit(() => settingsClient.setRate({ params: { currency: rate.currency }, payload }))
  }
  return (
    <tr>
      <th scope="row">
        {rate.currency} <span className="bo-badge">{rate.type}</span>
        {!rate.enabled && <span className="bo-badge bo-badge--danger">Disabled</span>}
      </th>
      {editing ? (
        <td colSpan={5}>
          <form className="bo-form-row" onSubmit={save} aria-label={`Edit ${rate.currency}`}>
            <label>
              EUR per 1 {rate.currency}
              <input name="eurRate" defaultValue={rate.eurRate} required inputMode="decimal" />
            </label>
            {minimums.map(([field, label]) => (
              <label key={field}>
                {label} ({rate.currency})
                <input
                  name={field}
                  defaultValue={majorOf(rate[field], rate.currency)}
                  required
                  inputMode="decimal"
                />
              </label>
            ))}
            <button
              type="submit"
              className="bo-button bo-button--primary"
              disabled={action.state === "submitting"}
            >
              Save
            </button>
            <button type="button" className="bo-button" onClick={action.cancel}>
              Cancel
            </button>
          </form>
          {invalid && (
            <p className="bo-error" role="alert">
              {invalid}
            </p>
          )}
          <Failure action={action} />
        </td>
      ) : (
        <>
          <td className="bo-num">{rate.eurRate}</td>
          {minimums.map(([field]) => (
            <td key={field} className="bo-num">
              {money(rate[field], rate.currency)}
            </td>
          ))}
          <td>
            <button type="button" className="bo-button" onClick={action.open}>
              Edit<span className="visually-hidden"> {rate.currency}</span>
            </button>
            <div className="bo-muted">
              {when(rate.updatedAt)} by {rate.updatedBy}
            </div>
            {action.state === "done" && (
              <p className="bo-success" role="status">
                Saved.
              </p>
            )}
            <Failure action={action} />
          </td>
        </>
      )}
    </tr>
  )
}

export const RatesScreen = () => {
  const rates = useResource(() => settingsClient.listRates())
  return (
    <>
      <ScreenHeader title="Rates and minimums" refresh={rates.refresh} refreshing={rates.refreshing} />
      <p className="bo-muted">
        The EUR rate converts amounts for bonuses and limits; minimums apply per currency from the next
        request.
      </p>
      <ResourceState {...rates} />
      {rates.data && (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <caption className="visually-hidden">Rates and minimums per currency</caption>
            <thead>
              <tr>
                <th scope="col">Currency</th>
                <th scope="col" className="bo-num">
                  EUR per unit
                </th>
                <th scope="col" className="bo-num">
                  Min. deposit
                </th>
                <th scope="col" className="bo-num">
                  Min. for a promotion
                </th>
                <th scope="col" className="bo-num">
                  Min. withdrawal
                </th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rates.data.rates.map((r) => (
                <RateRow key={r.currency} rate={r} onChanged={rates.refresh} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}

// ── Promotions ──────────────────────────────────────────────────────────────────────────────────

/** The form's fields as typed text (the server parses them exactly as on the command line). */
const promotionFields = [
  { name: "name", label: "Name", required: true, hint: "" },
  { name: "code", label: "Coupon code", required: false, hint: "Empty: no code" },
  {
    name: "bands",
    label: "Bands",
    required: true,
    hint: "UPTO_EUR:PERCENT[:SPINS] …, the last above:PERCENT",
  },
  { name: "maxBonusEur", label: "Max bonus (EUR)", required: true, hint: "" },
  { name: "wagering", label: "Wagering (×)", required: true, hint: "0 to 100" },
  { name: "maxBetEur", label: "Max bet (EUR)", required: true, hint: "" },
  { name: "validDays", label: "Valid days", required: true, hint: "1 to 365" },
  { name: "depositNumber", label: "Deposit number", required: false, hint: "Empty: any deposit" },
  { name: "freeSpinGame", label: "Free-spin game", required: false, hint: "A game id" },
  { name: "freeSpinBetEur", label: "Free-spin bet (EUR)", required: false, hint: "" },
  { name: "unlockDepositEur", label: "Unlock deposit (EUR)", required: false, hint: "" },
  { name: "extraBonusPercent", label: "Extra bonus (%)", required: false, hint: "" },
  { name: "currencies", label: "Currencies", required: false, hint: "EUR,USD — empty: all" },
  { name: "startsAt", label: "Starts", required: false, hint: "2027-01-31 or with time and zone" },
  { name: "endsAt", label: "Ends", required: false, hint: "" },
  { name: "maxUses", label: "Max uses", required: false, hint: "Empty: no limit" },
  { name: "maxUsesPerPlayer", label: "Max uses per player", required: false, hint: "" },
] as const

type FieldName = (typeof promotionFields)[number]["name"] | "description"
type Texts = Record<FieldName, string>

/** Fields that may be cleared (sent as null when emptied). */
const clearableNames = [
  "code",
  "depositNumber",
  "freeSpinGame",
  "freeSpinBetEur",
  "unlockDepositEur",
  "currencies",
  "startsAt",
  "endsAt",
  "maxUses",
] as const
type ClearableName = (typeof clearableNames)[number]
const isClearable = (name: FieldName): name is ClearableName =>
  (clearableNames as ReadonlyArray<string>).includes(name)

const textsOf = (p: PromotionT): Texts => ({
  name: p.name,
  description: p.description,
  code: p.code ?? "",
  bands: p.bands.map((b) => `${b.upToEur ?? "above"}:${b.percent}:${b.freeSpins}`).join(" "),
  maxBonusEur: p.maxBonusEur,
  wagering: String(p.wageringMultiple),
  maxBetEur: p.maxBetEur,
  validDays: String(p.validDays),
  depositNumber: p.depositNumber === null ? "" : String(p.depositNumber),
  freeSpinGame: p.freeSpinGame ?? "",
  freeSpinBetEur: p.freeSpinBetEur ?? "",
  unlockDepositEur: p.unlockDepositEur ?? "",
  extraBonusPercent: String(p.extraBonusPercent),
  currencies: p.currencies?.join(",") ?? "",
  startsAt: p.startsAt ?? "",
  endsAt: p.endsAt ?? "",
  maxUses: p.maxUses === null ? "" : String(p.maxUses),
  maxUsesPerPlayer: String(p.maxUsesPerPlayer),
})

type Changes = { -readonly [K in keyof typeof PromotionChanges.Type]: (typeof PromotionChanges.Type)[K] }

/** What differs from `before` (everything given when creating); an emptied clearable field is null. */
const changesOf = (data: FormData, before: Texts | null): Changes => {
  const changes: Changes = {}
  const names: ReadonlyArray<FieldName> = [...promotionFields.map((f) => f.name), "description"]
  for (const name of names) {
    const text = String(data.get(name) ?? "").trim()
    if (before !== null && text === before[name]) continue
    if (text === "" && before === null) continue
    if (name === "bands") changes.bands = text.split(/\s+/).filter((b) => b !== "")
    else if (text === "") {
      if (isClearable(name)) changes[name] = null
    } else changes[name] = text
  }
  return changes
}

const PromotionForm = ({
  action,
  promotion,
  onDone,
}: {
  readonly action: Action
  readonly promotion: PromotionT | null
  readonly onDone?: () => void
}) => {
  const before = promotion === null ? null : textsOf(promotion)
  const prefix = useId()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const changes = changesOf(data, before)
    if (promotion === null) {
      const payload = {
        ...changes,
        id: String(data.get("id") ?? "").trim(),
        kind: String(data.get("kind") ?? ""),
      }
      submitAgain(action, () => settingsClient.createPromotion({ payload }))
    } else {
      action.submit(() => settingsClient.updatePromotion({ params: { id: promotion.id }, payload: changes }))
    }
  }
  return (
    <form
      className="bo-promotion-form"
      onSubmit={submit}
      aria-label={promotion ? `Edit ${promotion.id}` : "New promotion"}
    >
      {promotion === null && (
        <>
          <label>
            Id
            <input name="id" required pattern="[a-z0-9][a-z0-9\-]{0,63}" placeholder="spring-reload" />
          </label>
          <label>
            Kind
            <select name="kind" defaultValue="deposit_bonus">
              <option value="deposit_bonus">Deposit bonus</option>
              <option value="free_spins">Free spins</option>
            </select>
          </label>
        </>
      )}
      {promotionFields.map((f) => (
        <label key={f.name} className={f.name === "bands" ? "bo-wide" : undefined}>
          {f.label}
          <input
            name={f.name}
            required={f.required}
            defaultValue={before?.[f.name] ?? (f.name === "bands" ? "above:100:0" : "")}
            aria-describedby={f.hint ? `${prefix}-${f.name}` : undefined}
          />
          {f.hint && (
            <span className="bo-hint" id={`${prefix}-${f.name}`}>
              {f.hint}
            </span>
          )}
        </label>
      ))}
      <label className="bo-wide">
        Description
        <textarea name="description" rows={2} maxLength={2000} defaultValue={before?.description ?? ""} />
      </label>
      <div className="bo-row bo-wide">
        <button
          type="submit"
          className="bo-button bo-button--primary"
          disabled={action.state === "submitting"}
        >
          {promotion ? "Save changes" : "Create (inactive)"}
        </button>
        {onDone && (
          <button type="button" className="bo-button" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
      <div className="bo-wide">
        <Failure action={action} />
      </div>
    </form>
  )
}

const PromotionRow = ({
  promotion,
  onChanged,
}: {
  readonly promotion: PromotionT
  readonly onChanged: () => void
}) => {
  const edit = useAction(onChanged)
  const activate = useAction(onChanged)
  const editing = edit.state === "editing" || edit.state === "submitting" || edit.state === "failed"
  return (
    <>
      <tr>
        <td>
          {promotion.name}
          <div className="bo-muted bo-mono">{promotion.id}</div>
        </td>
        <td>{promotion.kind === "free_spins" ? "Free spins" : "Deposit bonus"}</td>
        <td className="bo-mono">{promotion.code ?? "—"}</td>
        <td>
          {promotion.bands.map((b) => (
            <div key={b.upToEur ?? "above"}>
              {b.upToEur === null ? "above" : `up to ${b.upToEur} EUR`}: {b.percent} %
              {b.freeSpins > 0 ? ` + ${b.freeSpins} spins` : ""}
            </div>
          ))}
        </td>
        <td>
          {promotion.wageringMultiple}× · max {promotion.maxBonusEur} EUR · {promotion.validDays} days
        </td>
        <td className="bo-num">
          {promotion.uses}
          {promotion.maxUses === null ? "" : ` / ${promotion.maxUses}`}
        </td>
        <td>
          {promotion.active ? (
            <span className="bo-badge bo-badge--ok">Active</span>
          ) : (
            <span className="bo-badge">Inactive</span>
          )}
        </td>
        <td>
          <div className="bo-row">
            <button
              type="button"
              className={promotion.active ? "bo-button bo-button--danger" : "bo-button"}
              disabled={activate.state === "submitting"}
              onClick={() =>
                submitAgain(activate, () =>
                  settingsClient.setPromotionActive({
                    params: { id: promotion.id },
                    payload: { active: !promotion.active },
                  }),
                )
              }
            >
              {promotion.active ? "Deactivate" : "Activate"}
              <span className="visually-hidden"> {promotion.name}</span>
            </button>
            <button type="button" className="bo-button" onClick={editing ? edit.cancel : edit.open}>
              {editing ? "Close" : "Edit"}
              <span className="visually-hidden"> {promotion.name}</span>
            </button>
          </div>
          <Failure action={activate} />
        </td>
      </tr>
      {editing && (
        <tr>
          <td colSpan={8}>
            <PromotionForm action={edit} promotion={promotion} onDone={edit.cancel} />
          </td>
        </tr>
      )}
    </>
  )
}

export const PromotionsScreen = () => {
  const promotions = useResource(() => settingsClient.listPromotions())
  const create = useAction(promotions.refresh)
  const list = promotions.data?.promotions ?? []
  const created = create.state === "done" ? (create.result as PromotionT) : null
  return (
    <>
      <ScreenHeader title="Promotions" refresh={promotions.refresh} refreshing={promotions.refreshing} />
      <details className="bo-card">
        <summary>
          <h2 className="bo-inline-heading">New promotion</h2>
        </summary>
        <PromotionForm action={create} promotion={null} />
        {created && (
          <p className="bo-success" role="status">
            {created.name} ({created.id}) created, inactive until activated.
          </p>
        )}
      </details>
      <ResourceState {...promotions} />
      {promotions.data && list.length === 0 && <p className="bo-notice">No promotion yet.</p>}
      {list.length > 0 && (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <caption className="visually-hidden">Promotions</caption>
            <thead>
              <tr>
                <th scope="col">Promotion</th>
                <th scope="col">Kind</th>
                <th scope="col">Code</th>
                <th scope="col">Bands</th>
                <th scope="col">Terms</th>
                <th scope="col" className="bo-num">
                  Uses
                </th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <PromotionRow key={p.id} promotion={p} onChanged={promotions.refresh} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
