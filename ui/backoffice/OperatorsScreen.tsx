/** Operators and roles (admins): who can sign in, with which role; create, change role, disable. */
import { type FormEvent, useId } from "react"
import { operatorsClient } from "../../services/backoffice/clients/operators.ts"
import type { Operator } from "../../services/backoffice/operators.ts"
import { type Role, roles } from "../../services/backoffice/permissions.ts"
import { type Action, useAction, useResource } from "./actors.tsx"
import { when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"

const isRole = (value: string): value is Role => (roles as ReadonlyArray<string>).includes(value)

const CreateOperator = ({ action }: { readonly action: Action }) => {
  const errorId = useId()
  // Kept until dismissed or the next creation: the one-time password is shown only here.
  const created =
    action.state !== "submitting" && action.result !== null
      ? (action.result as { initialPassword?: string; operator: Operator })
      : null
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const role = String(data.get("role") ?? "")
    const payload = {
      email: String(data.get("email") ?? ""),
      name: String(data.get("name") ?? ""),
      role: isRole(role) ? role : "support",
    }
    action.submit(() => operatorsClient.createOperator({ payload }))
    event.currentTarget.reset()
  }
  return (
    <section className="bo-card" aria-labelledby="new-operator">
      <h2 id="new-operator">New operator</h2>
      <form className="bo-form-row" onSubmit={submit} aria-describedby={action.error ? errorId : undefined}>
        <label>
          Name
          <input name="name" required maxLength={100} />
        </label>
        <label>
          E-mail
          <input name="email" type="email" required maxLength={254} />
        </label>
        <label>
          Role
          <select name="role" defaultValue="support">
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="bo-button bo-button--primary"
          disabled={action.state === "submitting"}
        >
          Create
        </button>
      </form>
      {action.error && (
        <p id={errorId} className="bo-error" role="alert">
          {action.error}
        </p>
      )}
      {created && (
        <div className="bo-success" role="status">
          <p>
            {created.operator.name} ({created.operator.email}) can sign in as {created.operator.role}.
          </p>
          {created.initialPassword && (
            <p>
              One-time password, shown only now: <code className="bo-code">{created.initialPassword}</code>
            </p>
          )}
          <button type="button" className="bo-button" onClick={action.dismiss}>
            Done, hide it
          </button>
        </div>
      )}
    </section>
  )
}

/** An admin's resets of an operator's credentials; each also ends their sessions and API tokens. */
const resets = [
  { what: "password", label: "Reset password" },
  { what: "totp", label: "Reset two-step" },
  { what: "tokens", label: "End API tokens" },
] as const

const OperatorRow = ({
  operator,
  onChanged,
}: {
  readonly operator: Operator
  readonly onChanged: () => void
}) => {
  const action = useAction(onChanged)
  const reset = useAction(onChanged)
  const resetTo =
    reset.state !== "submitting" && reset.result !== null
      ? (reset.result as { initialPassword?: string }).initialPassword
      : undefined
  const change = (payload: { role?: Role; disabled?: boolean }) =>
    action.submit(() => operatorsClient.updateOperator({ params: { id: operator.id }, payload }))
  return (
    <tr>
      <td>
        {operator.name}
        <div className="bo-muted">{operator.email}</div>
      </td>
      <td>
        <label className="visually-hidden" htmlFor={`role-${operator.id}`}>
          Role of {operator.name}
        </label>
        <select
          id={`role-${operator.id}`}
          value={operator.role}
          disabled={action.state === "submitting"}
          onChange={(event) => {
            const role = event.currentTarget.value
            if (isRole(role)) change({ role })
          }}
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td>{operator.enrolled ? "Set up" : "Not yet"}</td>
      <td>{operator.disabled ? <span className="bo-badge bo-badge--danger">Disabled</span> : "Active"}</td>
      <td>{when(operator.createdAt)}</td>
      <td>
        <button
          type="button"
          className="bo-button"
          disabled={action.state === "submitting"}
          onClick={() => change({ disabled: !operator.disabled })}
        >
          {operator.disabled ? "Enable" : "Disable"}
        </button>
        {resets.map(({ what, label }) => (
          <button
            key={what}
            type="button"
            className="bo-button"
            disabled={reset.state === "submitting" || (what === "totp" && !operator.enrolled)}
            onClick={() =>
              reset.submit(() =>
                operatorsClient.resetOperator({ params: { id: operator.id }, payload: { what } }),
              )
            }
          >
            {label}
          </button>
        ))}
        {resetTo && (
          <p className="bo-success" role="status">
            New one-time password, shown only now: <code className="bo-code">{resetTo}</code>
          </p>
        )}
        {(action.error ?? reset.error) && (
          <p className="bo-error" role="alert">
            {action.error ?? reset.error}
          </p>
        )}
      </td>
    </tr>
  )
}

export const OperatorsScreen = () => {
  const operators = useResource(() => operatorsClient.listOperators())
  const create = useAction(operators.refresh)
  return (
    <>
      <ScreenHeader title="Operators" refresh={operators.refresh} refreshing={operators.refreshing} />
      <CreateOperator action={create} />
      <ResourceState {...operators} />
      {operators.data && (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <caption className="visually-hidden">Operators</caption>
            <thead>
              <tr>
                <th scope="col">Operator</th>
                <th scope="col">Role</th>
                <th scope="col">Two-step</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {operators.data.operators.map((o) => (
                <OperatorRow key={o.id} operator={o} onChanged={operators.refresh} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
