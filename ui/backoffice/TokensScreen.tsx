/**
 * The signed-in operator's API tokens (docs/backoffice.md, "API tokens"): what `npm run operator`
 * and the team's scripts send to act as this operator. Made here, from a session that passed the
 * second factor, shown once; listed with their last use; ended here. Every operator has this screen:
 * a token can do only what its operator's role may.
 */
import { type FormEvent, useId } from "react"
import { tokensClient } from "../../services/backoffice/clients/tokens.ts"
import type { ApiToken } from "../../services/backoffice/operators.ts"
import { Failure } from "./ActionFailure.tsx"
import { type Action, useAction, useResource } from "./actors.tsx"
import { when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"

const NewToken = ({ action }: { readonly action: Action }) => {
  const hintId = useId()
  // Kept until dismissed: the secret is shown only here, only now.
  const made =
    action.state !== "submitting" && action.result !== null
      ? (action.result as { token: string; apiToken: ApiToken })
      : null
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const days = Number(data.get("days") ?? "90")
    const payload = { name: String(data.get("name") ?? ""), days }
    action.submit(() => tokensClient.createToken({ payload }))
    event.currentTarget.reset()
  }
  return (
    <section className="bo-card" aria-labelledby="new-token">
      <h2 id="new-token">New token</h2>
      <p id={hintId} className="bo-muted">
        A token acts as you, with your role, from a script or{" "}
        <code className="bo-code">npm run operator</code>. It cannot make other tokens, change your password
        or manage operators, and changing your password ends every token of yours.
      </p>
      <form className="bo-form-row" onSubmit={submit} aria-describedby={hintId}>
        <label>
          What it is for
          <input name="name" required maxLength={100} placeholder="cli on my laptop" />
        </label>
        <label>
          Days
          <input name="days" type="number" required min={1} max={365} defaultValue={90} />
        </label>
        <button
          type="submit"
          className="bo-button bo-button--primary"
          disabled={action.state === "submitting"}
        >
          Create token
        </button>
      </form>
      <Failure action={action} />
      {made && (
        <div className="bo-success" role="status">
          <p>
            “{made.apiToken.name}” works until {when(made.apiToken.expiresAt)}. Copy it now: it is shown only
            this once.
          </p>
          <label>
            Token
            <input
              className="bo-code bo-token"
              readOnly
              value={made.token}
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
          <button type="button" className="bo-button" onClick={action.dismiss}>
            Done, hide it
          </button>
        </div>
      )}
    </section>
  )
}

const TokenRow = ({ token, onChanged }: { readonly token: ApiToken; readonly onChanged: () => void }) => {
  const revoke = useAction(onChanged)
  return (
    <tr>
      <td>{token.name}</td>
      <td>{when(token.createdAt)}</td>
      <td>
        {token.lastUsedAt === null ? "Never" : `${when(token.lastUsedAt)} from ${token.lastUsedIp ?? "?"}`}
      </td>
      <td>
        {token.revokedAt !== null ? (
          <span className="bo-badge">Ended {when(token.revokedAt)}</span>
        ) : (
          `Until ${when(token.expiresAt)}`
        )}
      </td>
      <td>
        {token.revokedAt === null && (
          <button
            type="button"
            className="bo-button"
            disabled={revoke.state === "submitting"}
            onClick={() => revoke.submit(() => tokensClient.revokeToken({ params: { id: token.id } }))}
          >
            End “{token.name}”
          </button>
        )}
        <Failure action={revoke} />
      </td>
    </tr>
  )
}

export const TokensScreen = () => {
  const tokens = useResource(() => tokensClient.listTokens())
  const create = useAction(tokens.refresh)
  return (
    <>
      <ScreenHeader title="API tokens" refresh={tokens.refresh} refreshing={tokens.refreshing} />
      <NewToken action={create} />
      <ResourceState {...tokens} />
      {tokens.data &&
        (tokens.data.tokens.length === 0 ? (
          <p className="bo-muted">No token yet.</p>
        ) : (
          <div className="bo-table-wrap">
            <table className="bo-table">
              <caption className="visually-hidden">Your API tokens</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.tokens.map((t) => (
                  <TokenRow key={t.id} token={t} onChanged={tokens.refresh} />
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </>
  )
}
