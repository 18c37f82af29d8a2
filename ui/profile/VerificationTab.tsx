/**
 * The verification tab (`/profile/verification`, linked from cashout): the identity document and the
 * proof of address, each with its status, its history and an upload while it may be (re)placed; "verified"
 * when both are approved. One `verificationDocument` machine per document.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { verificationDocumentMachine } from "../../machines/profile/verificationDocument.machine.ts"
import {
  DocumentKinds,
  DocumentMessages,
  documentAccept,
  documentStatusLabel,
  isVerified,
} from "../../services/documents.ts"
import type { DocumentStatus } from "../../services/profile-service.ts"
import { Spinner } from "../components/Spinner.tsx"
import { errorIdOf, LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"

type DocumentActor = ActorRefFrom<typeof verificationDocumentMachine>

const statusClass = (status: DocumentStatus): string => `status status--${status.toLowerCase()}`

const DocumentCard = ({ actor }: { actor: DocumentActor }) => {
  const kind = useSelector(actor, (s) => s.context.kind)
  const document = useSelector(actor, (s) => s.context.document)
  const file = useSelector(actor, (s) => s.context.file)
  const uploadable = useSelector(actor, (s) => s.context.uploadable)
  const error = useSelector(actor, (s) => s.context.error)
  const view = useSelector(actor, (s) =>
    s.matches("loading")
      ? "loading"
      : s.matches("loadFailed")
        ? "loadFailed"
        : s.matches("uploading")
          ? "uploading"
          : "ready",
  )
  const info = DocumentKinds[kind]
  const inputId = `document-${kind.toLowerCase()}`
  const titleId = `${inputId}-title`

  return (
    <section className="panel document" aria-labelledby={titleId}>
      <h2 id={titleId}>{info.title}</h2>
      {view === "loading" ? (
        <Spinner label={`Loading the status of your ${info.title.toLowerCase()}`} />
      ) : view === "loadFailed" || document === null ? (
        <LoadFailed message={DocumentMessages.loadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
      ) : (
        <>
          <p className="document__status">
            Status:{" "}
            <span className={statusClass(document.status)}>{documentStatusLabel(document.status)}</span>
          </p>
          {document.status === "REJECTED" && document.reason ? (
            <p className="document__reason">Reason: {document.reason}</p>
          ) : null}
          {uploadable ? (
            <form
              className="document__upload"
              aria-label={`Upload your ${info.title.toLowerCase()}`}
              onSubmit={(event) => {
                event.preventDefault()
                actor.send({ type: "UPLOAD" })
              }}
            >
              <p className="muted">{info.hint}</p>
              <label className="field__label" htmlFor={inputId}>
                {document.status === "REJECTED" ? "Upload a new file" : "Choose a file"} (JPEG, PNG or PDF, up
                to 10 MB)
              </label>
              <input
                id={inputId}
                type="file"
                className="document__file"
                accept={documentAccept}
                disabled={view === "uploading"}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorIdOf(inputId) : undefined}
                onChange={(event) => {
                  const chosen = event.currentTarget.files?.[0]
                  if (chosen)
                    actor.send({
                      type: "CHOOSE",
                      file: { name: chosen.name, type: chosen.type, size: chosen.size, blob: chosen },
                    })
                }}
              />
              {error ? (
                <p id={errorIdOf(inputId)} className="field__error" role="alert">
                  {error}
                </p>
              ) : null}
              <button
                type="submit"
                className="button button--primary"
                disabled={view === "uploading" || file === null}
                aria-busy={view === "uploading"}
              >
                {view === "uploading" ? "Uploading…" : "Upload"}
              </button>
            </form>
          ) : null}
          {document.history.length > 0 ? (
            <details className="document__history">
              <summary>History ({document.history.length})</summary>
              <ul>
                {document.history.map((entry) => (
                  <li key={entry.id}>
                    <span>{entry.fileName}</span> · uploaded {formatDateTime(entry.uploadedAt)} ·{" "}
                    <span className={statusClass(entry.status)}>{documentStatusLabel(entry.status)}</span>
                    {entry.reason ? ` — ${entry.reason}` : ""}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </>
      )}
    </section>
  )
}

export const VerificationTab = ({ id, bill }: { id: DocumentActor; bill: DocumentActor }) => {
  const idStatus = useSelector(id, (s) => s.context.document?.status ?? null)
  const billStatus = useSelector(bill, (s) => s.context.document?.status ?? null)
  const verified = isVerified(idStatus, billStatus)
  return (
    <div className="profile__section">
      <p className="page__lead">Cashouts need a verified identity and a verified address.</p>
      {verified ? (
        <p className="notice notice--success" role="status">
          <strong>Verified.</strong> {DocumentMessages.verified}
        </p>
      ) : null}
      <div className="documents">
        <DocumentCard actor={id} />
        <DocumentCard actor={bill} />
      </div>
    </div>
  )
}
