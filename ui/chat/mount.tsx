/**
 * Mounts the support chat beside the app (its own React root, appended to <body>) once the entry
 * point asks, after the first screen: the first download carries only that call. It shows on every
 * screen of the ready shell and follows the session's player.
 */
import { useSelector } from "@xstate/react"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import type { AuthActor, ShellActor } from "../app/actors.tsx"
import { ChatWidget } from "./ChatWidget.tsx"

const ChatRoot = ({ shell }: { readonly shell: ShellActor }) => {
  // The session actor is a child of the ready shell: none while booting, blocked or crashed.
  const auth = useSelector(shell, (s) => (s.matches("ready") ? s.children.auth : undefined)) as
    | AuthActor
    | undefined
  return auth === undefined ? null : <ChatWidget auth={auth} />
}

export const mountChat = (shell: ShellActor): void => {
  const host = document.createElement("div")
  host.id = "chat-root"
  document.body.appendChild(host)
  createRoot(host).render(
    <StrictMode>
      <ChatRoot shell={shell} />
    </StrictMode>,
  )
}
