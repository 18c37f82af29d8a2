/** Rates and minimums (payments): the EUR rate as exact decimal text, minimums in integer minor units — never a float. */

import { type FormEvent, useState } from "react"
import { settingsClient } from "../../services/backoffice/clients/settings.ts"
import type { Rate } from "../../services/backoffice/settings.ts"
import { Failure } from "./ActionFailure.tsx"
import { useAction, useResource } from "./actors.tsx"
import { majorOf, minorOf } from "./amount.ts"
import { money, when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./reports.css"

type RateT = typeof Rate.Type

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
