/**
 * The live-support chat (docs/chat.md), its own chunk: the shell loads it after the first screen.
 * A thin projection of machines/chat/chatWidget.machine.ts: the launcher bottom-right with the
 * unread badge, and the panel (messages as a polite live log, a labelled textarea and Send). With
 * CHAT_PROVIDER=chatwoot nothing of ours is drawn: Chatwoot's SDK brings its own launcher, and the
 * machine's identity child hands it the player 3 s after load.
 */
import { useActorRef, useSelector } from "@xstate/react"
import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useRef } from "react"
import type { ActorRefFrom } from "xstate"
import { chatIdentityFor } from "../../machines/chat/chatIdentity.machine.ts"
import { ChatWidgetMessages, chatWidgetMachine } from "../../machines/chat/chatWidget.machine.ts"
import {
  CHAT_PROVIDER_META,
  type ChatUser,
  fetchChatIdentity,
  readChatProviderConfig,
} from "../../services/chat-provider.ts"
import type { ChatMessage } from "../../services/chat-service.ts"
import type { SessionUser } from "../../services/user-service.ts"
import type { AuthActor } from "../app/actors.tsx"
import { makeChatwootProvider } from "./chatwoot.ts"
import "./chat.css"

type ChatActor = ActorRefFrom<typeof chatWidgetMachine>

const chatUserOf = (user: SessionUser | null): ChatUser | null =>
  user === null ? null : { id: user.id, name: user.fullName }

const authorLabel: Record<ChatMessage["author"], string> = {
  player: "You",
  visitor: "You",
  operator: "Support",
  system: "Support",
}

const timeOf = (iso: string): string =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })

const Messages = ({ actor }: { actor: ChatActor }) => {
  const messages = useSelector(actor, (s) => s.context.messages)
  const closedNotice = useSelector(actor, (s) => s.context.closedNotice)
  const end = useRef<HTMLLIElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls whenever a message arrives
  useEffect(() => {
    // A block body: scrolling may return a promise, and an effect must return nothing or a cleanup.
    end.current?.scrollIntoView({ block: "end" })
  }, [messages.length, closedNotice])
  return (
    // The log announces new messages politely; focusable so the keyboard can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <div className="chat__messages" role="log" aria-live="polite" aria-label="Messages" tabIndex={0}>
      <ol className="chat__list">
        {messages.length === 0 ? (
          <li className="chat__empty">Ask us anything: payments, bonuses, your account. We answer here.</li>
        ) : null}
        {messages.map((m) => {
          const mine = m.author === "player" || m.author === "visitor"
          return (
            <li
              key={m.id}
              className={`chat__message ${mine ? "chat__message--mine" : "chat__message--staff"}`}
            >
              <span className="visually-hidden">{authorLabel[m.author]}: </span>
              <p className="chat__body">{m.body}</p>
              <time className="chat__time" dateTime={m.createdAt}>
                {timeOf(m.createdAt)}
              </time>
            </li>
          )
        })}
        {closedNotice ? <li className="chat__notice">{ChatWidgetMessages.closedByStaff}</li> : null}
        <li ref={end} aria-hidden="true" className="chat__end" />
      </ol>
    </div>
  )
}

const Composer = ({ actor }: { actor: ChatActor }) => {
  const draft = useSelector(actor, (s) => s.context.draft)
  const error = useSelector(actor, (s) => s.context.error)
  const sending = useSelector(actor, (s) => s.matches({ active: { panel: { open: "sending" } } }))
  const input = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    input.current?.focus()
  }, [])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    actor.send({ type: "SEND" })
  }
  // Enter sends, Shift+Enter is a new line (as in every chat).
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      actor.send({ type: "SEND" })
    }
  }
  return (
    <form className="chat__composer" onSubmit={submit}>
      <label htmlFor="chat-input" className="visually-hidden">
        Your message
      </label>
      <textarea
        id="chat-input"
        ref={input}
        className="chat__input"
        rows={2}
        maxLength={2000}
        placeholder="Write a message…"
        value={draft}
        aria-invalid={error !== null}
        aria-describedby={error !== null ? "chat-error" : undefined}
        onChange={(e) => actor.send({ type: "EDIT", value: e.target.value })}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="button button--primary chat__send" disabled={sending}>
        {sending ? "Sending…" : "Send"}
      </button>
      {error !== null ? (
        <p id="chat-error" className="chat__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  )
}

const PanelBody = ({ actor }: { actor: ChatActor }) => {
  const view = useSelector(actor, (s) =>
    s.matches("loading") ? "loading" : s.matches("failed") ? "failed" : "ready",
  )
  const live = useSelector(actor, (s) =>
    s.matches({ active: { live: "connected" } }) || s.matches({ active: { live: "syncing" } })
      ? "live"
      : s.matches({ active: { live: "off" } })
        ? "off"
        : "connecting",
  )
  if (view === "loading")
    return (
      <p className="chat__state" role="status">
        Opening the chat…
      </p>
    )
  if (view === "failed")
    return (
      <div className="chat__state">
        <p role="alert">{ChatWidgetMessages.loadFailed}</p>
        <button type="button" className="button button--ghost" onClick={() => actor.send({ type: "RETRY" })}>
          Try again
        </button>
      </div>
    )
  return (
    <>
      <Messages actor={actor} />
      {live === "connecting" ? (
        <p className="chat__live muted" role="status">
          Connecting… replies appear when the connection is back.
        </p>
      ) : null}
      <Composer actor={actor} />
    </>
  )
}

const BuiltinChat = ({ actor }: { actor: ChatActor }) => {
  // A background read (the prefetch a few seconds after sign-in) is not the panel opening: shown
  // as open, its end would move the focus to the launcher from wherever the player is.
  const open = useSelector(
    actor,
    (s) =>
      (s.matches("loading") && s.context.wantsOpen) ||
      s.matches("failed") ||
      s.matches({ active: { panel: "open" } }),
  )
  const unread = useSelector(actor, (s) => (s.matches({ active: { panel: "open" } }) ? 0 : s.context.unread))
  const launcher = useRef<HTMLButtonElement>(null)
  const wasOpen = useRef(false)
  // Closing gives the focus back to the launcher that opened the panel.
  useEffect(() => {
    if (wasOpen.current && !open) launcher.current?.focus()
    wasOpen.current = open
  }, [open])
  const close = () => actor.send({ type: "CLOSE" })
  const label =
    unread > 0 ? `Support chat, ${unread} unread ${unread === 1 ? "message" : "messages"}` : "Support chat"
  return (
    <aside className="chat" aria-label="Support chat">
      {open ? (
        <section
          id="chat-panel"
          className="chat__panel"
          aria-labelledby="chat-title"
          onKeyDown={(e) => {
            if (e.key === "Escape") close()
          }}
        >
          <header className="chat__header">
            <div>
              <h2 id="chat-title" className="chat__title">
                Support
              </h2>
              <p className="chat__subtitle">We usually answer within a few minutes.</p>
            </div>
            <button type="button" className="chat__close" aria-label="Minimize the chat" onClick={close}>
              <span aria-hidden="true">×</span>
            </button>
          </header>
          <PanelBody actor={actor} />
        </section>
      ) : null}
      <button
        ref={launcher}
        type="button"
        className="chat__launcher"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? "chat-panel" : undefined}
        onClick={() => actor.send(open ? { type: "CLOSE" } : { type: "OPEN" })}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="26" height="26" focusable="false">
          <path
            fill="currentColor"
            d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm3 6a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"
          />
        </svg>
        {unread > 0 ? (
          <span className="chat__badge" aria-hidden="true">
            {unread > 9 ? "9+" : unread}
          </span>
        ) : null}
      </button>
    </aside>
  )
}

/** The chat of the shell, following the session's player (null for a visitor). */
export const ChatWidget = ({ auth }: { readonly auth: AuthActor }) => {
  const user = useSelector(auth, (s) => s.context.user)
  const config = useMemo(
    () => readChatProviderConfig(document.querySelector<HTMLMetaElement>(CHAT_PROVIDER_META)),
    [],
  )
  const chatwoot = useMemo(
    () =>
      config.provider === "chatwoot"
        ? makeChatwootProvider(config, window, { identify: fetchChatIdentity })
        : null,
    [config],
  )
  const machine = useMemo(
    () =>
      chatwoot === null
        ? chatWidgetMachine
        : chatWidgetMachine.provide({ actors: { identity: chatIdentityFor(chatwoot) } }),
    [chatwoot],
  )
  const chatUser = chatUserOf(user)
  const actor = useActorRef(machine, { input: { provider: config.provider, user: chatUser } })
  useEffect(() => {
    if (chatwoot !== null) void chatwoot.start().catch(() => undefined)
  }, [chatwoot])
  const userKey = chatUser === null ? "" : `${chatUser.id}\n${chatUser.name}`
  const firstKey = useRef(userKey)
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the signed-in player by identity
  useEffect(() => {
    if (userKey === firstKey.current) return
    firstKey.current = userKey
    actor.send({ type: "USER_CHANGED", user: chatUser })
  }, [userKey, actor])
  return chatwoot === null ? <BuiltinChat actor={actor} /> : null
}
