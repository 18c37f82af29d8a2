/**
 * The audit log (admins): every change made in the back office and by the command line, and every
 * failed sign-in step, newest first. People and players by name and e-mail (the server joins them
 * on read); the ids stay beneath, for a search or a ticket.
 */
import { useState } from "react"
import { operatorsClient } from "../../services/backoffice/clients/operators.ts"
import type { AuditEntry } from "../../services/backoffice/operators.ts"
import { useResource } from "./actors.tsx"
import { when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"

const PAGE = 50

const show = (value: unknown): string =>
  value === null || value === undefined ? "—" : JSON.stringify(value, null, 1)

const Row = ({ entry }: { readonly entry: AuditEntry }) => (
  <tr>
    <td>{when(entry.at)}</td>
    <td>
      {entry.who}
      {entry.ip && <div className="bo-muted">{entry.ip}</div>}
    </td>
    <td>
      <code>{entry.action}</code>
    </td>
    <td>
      {entry.subjectName ?? (entry.subject === null ? "—" : <span className="bo-mono">{entry.subject}</span>)}
      {entry.subjectName !== null && entry.subject !== null && (
        <div className="bo-muted bo-mono">{entry.subject}</div>
      )}
    </td>
    <td>
      {entry.before === null && entry.after === null ? (
        "—"
      ) : (
        <details>
          <summary>Before / after</summary>
          <div className="bo-diff">
            <figure>
              <figcaption className="bo-muted">Before</figcaption>
              <pre>{show(entry.before)}</pre>
            </figure>
            <figure>
              <figcaption className="bo-muted">After</figcaption>
              <pre>{show(entry.after)}</pre>
            </figure>
          </div>
        </details>
      )}
    </td>
  </tr>
)

export const AuditScreen = () => {
  const [before, setBefore] = useState<ReadonlyArray<string>>([])
  const cursor = before.at(-1)
  const page = useResource(() =>
    operatorsClient.audit({
      query: cursor === undefined ? { limit: PAGE } : { limit: PAGE, before: cursor },
    }),
  )
  const go = (next: ReadonlyArray<string>) => {
    setBefore(next)
    const at = next.at(-1)
    page.reload(() =>
      operatorsClient.audit({ query: at === undefined ? { limit: PAGE } : { limit: PAGE, before: at } }),
    )
  }
  return (
    <>
      <ScreenHeader title="Audit log" refresh={page.refresh} refreshing={page.refreshing} />
      <p className="bo-muted">Append-only: no one can change or delete an entry.</p>
      <ResourceState {...page} />
      {page.data && (
        <>
          <div className="bo-table-wrap">
            <table className="bo-table">
              <caption className="visually-hidden">Audit entries</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {page.data.entries.map((e) => (
                  <Row key={e.id} entry={e} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="bo-row">
            <button
              type="button"
              className="bo-button"
              disabled={before.length === 0}
              onClick={() => go(before.slice(0, -1))}
            >
              Newer
            </button>
            <button
              type="button"
              className="bo-button"
              disabled={page.data.next === null}
              onClick={() => page.data?.next && go([...before, page.data.next])}
            >
              Older
            </button>
          </div>
        </>
      )}
    </>
  )
}
