/**
 * The support inbox (staff side of the live chat, docs/backoffice.md "Support inbox"): the open
 * conversations with unread badges, the chosen conversation's messages with a reply box and canned
 * replies, Assign to me, Close, and the player's context beside it.
 *
 * Live by the staff stream (/api/backoffice/v1/chat/events) through its own machine
 * (machines/backoffice/backofficeStream, `useInboxStream`): a message or a closure reloads the list
 * and, when it is the open one, the conversation; the indicator in the header says whether the
 * stream is live. The stream carries messages and closures only, so a slow poll (30 s) remains for
 * what it does not (another operator's assignment or read marker) and for a stream that is down.
 * Opening a conversation marks what it shows as read (the load does it when there is anything
 * unread) and then reloads the list, so the badge clears at once.
 */
import { Effect } from "effect"
import { type FormEvent, useEffect, useId, useState } from "react"
import type { CannedReplies, ConversationPage, ConversationSummary } from "../../services/backoffice/chat.ts"
import { chatClient } from "../../services/backoffice/clients/chat.ts"
import {
  type InboxStream,
  type LiveState,
  useAction,
  useInboxChanges,
  useInboxStream,
  useResource,
  useSession,
} from "./actors.tsx"
import { money, when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./support.css"

/** For what the stream does not carry (assignments, read markers) and while it is down. */
const POLL_MS = 30_000
const BODY_MAX = 2000

type Canned = (typeof CannedReplies.Type)["replies"]
type Status = "open" | "closed"

const loadConversations = (status: Status) => () => chatClient.listConversations({ query: { status } })

/** The conversation, marking its unread messages read once they are on screen. */
const loadConversation = (id: string) => () =>
  chatClient.getConversation({ params: { id } }).pipe(
    Effect.tap((page) => {
      const last = page.messages.at(-1)
      return page.conversation.unread > 0 && last !== undefined
        ? chatClient.markConversationRead({ params: { id }, payload: { lastReadId: last.id } })
        : Effect.void
    }),
  )

const liveLabel: Record<LiveState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  stopped: "Not live",
  signedOut: "Signed out",
}

const LiveIndicator = ({ state }: { readonly state: LiveState }) => (
  <p
    role="status"
    aria-label="Inbox updates"
    className={state === "live" ? "bo-badge bo-badge--ok bo-support-live" : "bo-badge bo-support-live"}
  >
    {liveLabel[state]}
  </p>
)

const kycBadge = (kyc: string) =>
  kyc === "verified" ? "bo-badge bo-badge--ok" : kyc === "rejected" ? "bo-badge bo-badge--danger" : "bo-badge"

const ConversationItem = ({
  conversation,
  selected,
  onSelect,
}: {
  readonly conversation: ConversationSummary
  readonly selected: boolean
  readonly onSelect: () => void
}) => (
  <li>
    <button
      type="button"
      className="bo-support-item"
      aria-current={selected ? "true" : undefined}
      onClick={onSelect}
    >
      <span className="bo-support-item__head">
        <strong>{conversation.label}</strong>
        {conversation.unread > 0 && (
          <span className="bo-support-unread">
            {conversation.unread}
            <span className="visually-hidden"> unread</span>
          </span>
        )}
      </span>
      {conversation.player && <span className="bo-muted">{conversation.player.email}</span>}
      <span className="bo-support-item__last">{conversation.lastBody ?? "No messages"}</span>
      <span className="bo-muted bo-support-item__meta">
        {conversation.lastMessageAt ? when(conversation.lastMessageAt) : ""}
        {conversation.assignedOperator ? ` · ${conversation.assignedOperator.name}` : " · Unassigned"}
      </span>
    </button>
  </li>
)

const PlayerContextPanel = ({ page }: { readonly page: ConversationPage }) => {
  const context = page.context
  if (context === null)
    return (
      <aside className="bo-card bo-support-context" aria-labelledby="support-context">
        <h2 id="support-context">Visitor</h2>
        <p className="bo-muted">An anonymous visitor: no player account to show.</p>
      </aside>
    )
  return (
    <aside className="bo-card bo-support-context" aria-labelledby="support-context">
      <h2 id="support-context">Player</h2>
      <p className="bo-support-context__name">{context.name}</p>
      <p className="bo-muted">{context.email}</p>
      <p className="bo-row">
        <span className={kycBadge(context.kyc)}>KYC {context.kyc}</span>
        {context.locked && <span className="bo-badge bo-badge--danger">Locked</span>}
        {context.country && <span className="bo-badge">{context.country}</span>}
      </p>
      <p className="bo-muted">Registered {when(context.registeredAt)}</p>
      <h3>Balances</h3>
      {context.wallets.length === 0 ? (
        <p className="bo-muted">No wallet yet.</p>
      ) : (
        <dl className="bo-support-dl">
          {context.wallets.map((w) => (
            <div key={w.currency}>
              <dt>{w.currency}</dt>
              <dd>
                {money(w.cash, w.currency)}
                {w.bonus !== "0" && <span className="bo-muted"> + {money(w.bonus, w.currency)} bonus</span>}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <h3>Last deposits</h3>
      {context.deposits.length === 0 ? (
        <p className="bo-muted">No deposits.</p>
      ) : (
        <ul className="bo-support-list">
          {context.deposits.map((d) => (
            <li key={d.id}>
              {money(d.amount, d.currency)} · {d.method}{" "}
              <span className={d.status === "completed" ? "bo-badge bo-badge--ok" : "bo-badge"}>
                {d.status}
              </span>
              <div className="bo-muted">{when(d.createdAt)}</div>
            </li>
          ))}
        </ul>
      )}
      <h3>Active bonuses</h3>
      {context.bonuses.length === 0 ? (
        <p className="bo-muted">None.</p>
      ) : (
        <ul className="bo-support-list">
          {context.bonuses.map((b) => (
            <li key={b.id}>
              {b.name}: {money(b.balance, b.currency)}
              <div className="bo-muted">
                Wagered {money(b.wagered, b.currency)} of {money(b.wageringRequired, b.currency)}
              </div>
            </li>
          ))}
        </ul>
      )}
    </aside>
  )
}

const ReplyBox = ({
  id,
  canned,
  onSent,
}: {
  readonly id: string
  readonly canned: Canned
  readonly onSent: () => void
}) => {
  const [draft, setDraft] = useState("")
  const errorId = useId()
  const countId = useId()
  const send = useAction(() => {
    setDraft("")
    onSent()
  })
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const body = draft
    send.submit(() => chatClient.replyConversation({ params: { id }, payload: { body } }))
  }
  const trimmed = draft.trim().length
  return (
    <form className="bo-support-reply" onSubmit={submit} aria-label="Reply">
      <label>
        Canned reply
        <select
          value=""
          onChange={(event) => {
            const chosen = canned.find((c) => c.id === event.currentTarget.value)
            if (chosen) setDraft((d) => (d.trim() === "" ? chosen.body : `${d.trimEnd()}\n${chosen.body}`))
          }}
        >
          <option value="">Insert a canned reply…</option>
          {canned.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Your reply
        <textarea
          name="body"
          rows={4}
          maxLength={BODY_MAX}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          aria-describedby={send.error ? `${countId} ${errorId}` : countId}
        />
      </label>
      <div className="bo-row bo-support-reply__foot">
        <span id={countId} className="bo-muted">
          {draft.length} / {BODY_MAX}
        </span>
        <button
          type="submit"
          className="bo-button bo-button--primary"
          disabled={send.state === "submitting" || trimmed === 0}
        >
          {send.state === "submitting" ? "Sending…" : "Send reply"}
        </button>
      </div>
      {send.error && (
        <p id={errorId} className="bo-error" role="alert">
          {send.error}
        </p>
      )}
    </form>
  )
}

const ConversationPane = ({
  id,
  canned,
  stream,
  onChanged,
}: {
  readonly id: string
  readonly canned: Canned
  readonly stream: InboxStream
  readonly onChanged: () => void
}) => {
  const page = useResource(loadConversation(id), POLL_MS)
  useInboxChanges(stream, page.refresh, id)
  // This load marked unread messages read: the list's badge goes now, not at its next poll.
  const loaded = page.data
  useEffect(() => {
    if (loaded !== null && loaded.conversation.unread > 0) onChanged()
  }, [loaded, onChanged])
  const myId = useSession((s) => s.context.me?.operator.id ?? null)
  const changed = () => {
    page.refresh()
    onChanged()
  }
  const assign = useAction(changed)
  const close = useAction(changed)
  const data = page.data
  if (data === null) return <ResourceState {...page} />
  const conversation = data.conversation
  const mine = conversation.assignedOperator?.id === myId
  const open = conversation.status === "open"
  return (
    <>
      <section className="bo-card bo-support-thread" aria-labelledby="support-thread">
        <div className="bo-support-thread__head">
          <div>
            <h2 id="support-thread">{conversation.label}</h2>
            <p className="bo-muted">
              {conversation.player?.email ?? "Anonymous visitor"} ·{" "}
              {conversation.assignedOperator
                ? `Assigned to ${conversation.assignedOperator.name}`
                : "Unassigned"}
            </p>
          </div>
          <div className="bo-row">
            <span className={open ? "bo-badge bo-badge--ok" : "bo-badge"}>{conversation.status}</span>
            {open && (
              <button
                type="button"
                className="bo-button"
                disabled={assign.state === "submitting"}
                onClick={() =>
                  assign.submit(() =>
                    chatClient.assignConversation({
                      params: { id },
                      payload: { operatorId: mine ? null : "me" },
                    }),
                  )
                }
              >
                {mine ? "Unassign" : "Assign to me"}
              </button>
            )}
            {open && close.state !== "editing" && (
              <button type="button" className="bo-button bo-button--danger" onClick={close.open}>
                Close
              </button>
            )}
          </div>
        </div>
        {close.state === "editing" || close.state === "submitting" ? (
          <fieldset className="bo-notice bo-row bo-support-confirm">
            <legend className="visually-hidden">Confirm closing</legend>
            <span>Close this conversation? The player sees that it ended.</span>
            <button
              type="button"
              className="bo-button bo-button--danger"
              disabled={close.state === "submitting"}
              onClick={() => close.submit(() => chatClient.closeConversation({ params: { id } }))}
            >
              Close conversation
            </button>
            <button type="button" className="bo-button" onClick={close.cancel}>
              Cancel
            </button>
          </fieldset>
        ) : null}
        {(assign.error ?? close.error) && (
          <p className="bo-error" role="alert">
            {assign.error ?? close.error}
          </p>
        )}
        <ResourceState {...page} loading={false} />
        <div
          className="bo-support-messages"
          role="log"
          aria-live="polite"
          aria-label={`Messages with ${conversation.label}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls; the keyboard must reach it
          tabIndex={0}
        >
          <ol className="bo-support-messages__list">
            {data.messages.map((m) => {
              const staff = m.author === "operator" || m.author === "system"
              return (
                <li key={m.id} className={staff ? "bo-support-msg bo-support-msg--staff" : "bo-support-msg"}>
                  <span className="bo-support-msg__who">
                    {staff ? (m.operatorName ?? "Support") : conversation.label}
                    <span className="bo-muted"> · {when(m.createdAt)}</span>
                  </span>
                  <span className="bo-support-msg__body">{m.body}</span>
                </li>
              )
            })}
          </ol>
        </div>
        {open ? (
          <ReplyBox id={id} canned={canned} onSent={changed} />
        ) : (
          <p className="bo-muted">This conversation is closed.</p>
        )}
      </section>
      <PlayerContextPanel page={data} />
    </>
  )
}

export const SupportScreen = () => {
  const [status, setStatus] = useState<Status>("open")
  const [selected, setSelected] = useState<string | null>(null)
  const list = useResource(loadConversations("open"), POLL_MS)
  const live = useInboxStream()
  useInboxChanges(live.stream, list.refresh)
  const canned = useResource(() => chatClient.cannedReplies())
  const conversations = list.data?.conversations ?? []
  return (
    <>
      <ScreenHeader title="Support inbox" refresh={list.refresh} refreshing={list.refreshing}>
        <LiveIndicator state={live.state} />
        <label className="bo-support-filter">
          Show
          <select
            value={status}
            onChange={(event) => {
              const next: Status = event.currentTarget.value === "closed" ? "closed" : "open"
              setStatus(next)
              list.reload(loadConversations(next))
            }}
          >
            <option value="open">Open</option>
            <option value="closed">Closed</option>
          </select>
        </label>
      </ScreenHeader>
      <div className="bo-support">
        <nav className="bo-card bo-support-inbox" aria-label="Conversations">
          <h2 className="visually-hidden">Conversations</h2>
          <ResourceState {...list} />
          {list.data &&
            (conversations.length === 0 ? (
              <p className="bo-muted">
                {status === "open" ? "No open conversations." : "No closed conversations."}
              </p>
            ) : (
              <ul className="bo-support-items">
                {conversations.map((c) => (
                  <ConversationItem
                    key={c.id}
                    conversation={c}
                    selected={c.id === selected}
                    onSelect={() => setSelected(c.id)}
                  />
                ))}
              </ul>
            ))}
        </nav>
        {selected === null ? (
          <section className="bo-card bo-support-thread" aria-label="Conversation">
            <p className="bo-muted">Choose a conversation to read and answer it.</p>
          </section>
        ) : (
          <ConversationPane
            key={selected}
            id={selected}
            canned={canned.data?.replies ?? []}
            stream={live.stream}
            onChanged={list.refresh}
          />
        )}
      </div>
    </>
  )
}
