/** Promotions and coupons (marketing): list, create, edit (only what changed is sent), activate and deactivate. */
import { type FormEvent, useId } from "react"
import { settingsClient } from "../../services/backoffice/clients/settings.ts"
import type { Promotion, PromotionChanges } from "../../services/backoffice/settings.ts"
import { Failure } from "./ActionFailure.tsx"
import { type Action, useAction, useResource } from "./actors.tsx"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./reports.css"

type PromotionT = typeof Promotion.Type

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
      action.submit(() => settingsClient.createPromotion({ payload }))
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
                activate.submit(() =>
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
