/** The restricted countries (admins): visitors from these see only the blocked page; removal asks first. */
import { type FormEvent, useId } from "react"
import { settingsClient } from "../../services/backoffice/clients/settings.ts"
import { Failure } from "./ActionFailure.tsx"
import { useAction, useResource } from "./actors.tsx"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./reports.css"

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
    add.submit(() => settingsClient.addCountry({ payload: { code } }))
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
