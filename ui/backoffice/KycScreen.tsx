/**
 * The KYC queue (`kyc.review`): documents waiting for a decision, oldest first, refreshed every 15 s
 * so two officers see each other's decisions; the chosen one previewed beside the list (below it on
 * a phone) with Approve, and Reject with the reason the player will read.
 */
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react"
import { kycClient } from "../../services/backoffice/clients/kyc.ts"
import type { DocumentKind, KycDocument } from "../../services/backoffice/queues.ts"
import { useAction, useResource } from "./actors.tsx"
import { when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./queues.css"

const POLL_MS = 15_000

const kindLabel: Readonly<Record<DocumentKind, string>> = {
  identity: "Identity document",
  address: "Proof of address",
}

const size = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`

/**
 * The stored file by its URL: the generated client speaks JSON only, and the browser sends the
 * session cookie with an <img> or a link of the same origin.
 */
const fileUrl = (id: string): string => `/api/backoffice/v1/kyc/documents/${encodeURIComponent(id)}/file`

const Preview = ({ document: doc }: { readonly document: KycDocument }) =>
  doc.contentType === "application/pdf" ? (
    <div className="bo-kyc-pdf">
      <p className="bo-muted">
        A PDF opens in a new tab: the file is served sandboxed (it is what a player uploaded), and the browser
        does not draw PDFs inline under that policy.
      </p>
      <a className="bo-button" href={fileUrl(doc.id)} target="_blank" rel="noopener noreferrer">
        Open the PDF ({doc.fileName})
      </a>
    </div>
  ) : (
    <a href={fileUrl(doc.id)} target="_blank" rel="noopener noreferrer" className="bo-kyc-image">
      <img src={fileUrl(doc.id)} alt={`${kindLabel[doc.kind]} uploaded by ${doc.name}`} />
    </a>
  )

/** The chosen document: its preview and the two decisions (one panel per document: its own actions). */
const Review = ({
  document: doc,
  waiting,
  onDecided,
}: {
  readonly document: KycDocument
  /** Still in the queue: false once another officer decided it. */
  readonly waiting: boolean
  readonly onDecided: (message: string) => void
}) => {
  const headingId = useId()
  const reasonId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const what = `${kindLabel[doc.kind]} of ${doc.name}`
  const approved = useCallback(() => onDecided(`Approved: ${what}.`), [onDecided, what])
  const rejected = useCallback(
    () => onDecided(`Rejected: ${what}. The player was told why.`),
    [onDecided, what],
  )
  const approve = useAction(approved)
  const reject = useAction(rejected)
  const busy = approve.state === "submitting" || reject.state === "submitting"
  // The panel opens below the list on a phone: the focus (and the screen reader) goes to it.
  useEffect(() => heading.current?.focus(), [])
  const submitReject = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "")
    reject.submit(() => kycClient.kycReject({ params: { id: doc.id }, payload: { reason } }), reason)
  }
  const error = approve.error ?? reject.error
  return (
    <section className="bo-card bo-queue-detail" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {what}
      </h2>
      <dl className="bo-facts">
        <div>
          <dt>Player</dt>
          <dd>
            {doc.name}
            <div className="bo-muted">{doc.email}</div>
          </dd>
        </div>
        <div>
          <dt>Uploaded</dt>
          <dd>{when(doc.uploadedAt)}</dd>
        </div>
        <div>
          <dt>File</dt>
          <dd>
            {doc.fileName} · {size(doc.size)}
          </dd>
        </div>
        <div>
          <dt>SHA-256</dt>
          <dd className="bo-mono">{doc.sha256}</dd>
        </div>
      </dl>
      <Preview document={doc} />
      {!waiting && (
        <p className="bo-notice" role="status">
          No longer waiting: another officer decided this document.
        </p>
      )}
      {error && (
        <p className="bo-error" role="alert">
          {error}
        </p>
      )}
      {reject.state !== "idle" && reject.state !== "done" ? (
        <form className="bo-reason" onSubmit={submitReject}>
          <label htmlFor={reasonId}>Reason (the player reads it)</label>
          <textarea id={reasonId} name="reason" required maxLength={500} rows={3} />
          <div className="bo-row">
            <button type="submit" className="bo-button bo-button--danger" disabled={busy}>
              Reject document
            </button>
            <button type="button" className="bo-button" onClick={reject.cancel} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="bo-row">
          <button
            type="button"
            className="bo-button bo-button--primary"
            disabled={busy || !waiting}
            onClick={() => approve.submit(() => kycClient.kycApprove({ params: { id: doc.id } }))}
          >
            {approve.state === "submitting" ? "Approving…" : "Approve"}
          </button>
          <button
            type="button"
            className="bo-button bo-button--danger"
            disabled={busy || !waiting}
            onClick={reject.open}
          >
            Reject…
          </button>
        </div>
      )}
    </section>
  )
}

export const KycScreen = () => {
  const queue = useResource(() => kycClient.kycQueue(), POLL_MS)
  const [selected, setSelected] = useState<KycDocument | null>(null)
  const [decided, setDecided] = useState<string | null>(null)
  const { refresh } = queue
  const onDecided = useCallback(
    (message: string) => {
      setSelected(null)
      setDecided(message)
      refresh()
    },
    [refresh],
  )
  const documents = queue.data?.documents ?? []
  const waiting = selected !== null && documents.some((d) => d.id === selected.id)
  return (
    <>
      <ScreenHeader title="KYC queue" refresh={queue.refresh} refreshing={queue.refreshing}>
        {queue.data && (
          <span className="bo-badge" aria-live="polite">
            {queue.data.count} waiting
          </span>
        )}
      </ScreenHeader>
      <ResourceState {...queue} />
      {decided && (
        <p className="bo-success" role="status">
          {decided}
        </p>
      )}
      {queue.data && (
        <div className="bo-queue">
          <div className="bo-queue-list">
            {documents.length === 0 ? (
              <p className="bo-card bo-empty">No documents are waiting.</p>
            ) : (
              <div className="bo-table-wrap">
                <table className="bo-table">
                  <caption className="visually-hidden">Documents waiting for review, oldest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Player</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Uploaded</th>
                      <th scope="col">
                        <span className="visually-hidden">Review</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {documents.map((d) => (
                      <tr key={d.id} aria-current={d.id === selected?.id ? "true" : undefined}>
                        <td>
                          {d.name}
                          <div className="bo-muted">{d.email}</div>
                        </td>
                        <td>
                          {kindLabel[d.kind]}
                          <div className="bo-muted">
                            {d.contentType === "application/pdf" ? "PDF" : "Image"}
                          </div>
                        </td>
                        <td>{when(d.uploadedAt)}</td>
                        <td>
                          <button
                            type="button"
                            className="bo-button"
                            aria-pressed={d.id === selected?.id}
                            onClick={() => {
                              setDecided(null)
                              setSelected(d)
                            }}
                          >
                            Review
                            <span className="visually-hidden">
                              : {kindLabel[d.kind]} of {d.name}
                            </span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
          {selected && (
            <Review key={selected.id} document={selected} waiting={waiting} onDecided={onDecided} />
          )}
        </div>
      )}
    </>
  )
}
