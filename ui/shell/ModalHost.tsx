/**
 * The modal host view: nothing while every modal is closed (most visits), otherwise the modal layer
 * (radix Dialog and the flow views), which is its own chunk. It is prefetched when the browser is
 * idle after the first screen and when a pointer reaches an account button, so opening a modal
 * shows no delay; on a cold click the overlay and a spinner show until it arrives.
 */
import { useSelector } from "@xstate/react"
import { lazy, Suspense } from "react"
import { prefetchFlows } from "../../machines/modals.machine.ts"
import { type ModalsActor, useModalsActor } from "../app/actors.tsx"
import { Spinner } from "../components/Spinner.tsx"

export type OpenModal =
  | "closed"
  | "login"
  | "register"
  | "video"
  | "forgotPassword"
  | "resetPassword"
  | "confirmEmail"
  | "currency"
  | "deposit"
  | "iframe"
  | "cashout"
  | "loading"

export const openModal = (snapshot: ReturnType<ModalsActor["getSnapshot"]>): OpenModal => {
  if (snapshot.matches({ register: { active: "video" } })) return "video"
  for (const name of [
    "login",
    "register",
    "forgotPassword",
    "resetPassword",
    "confirmEmail",
    "currency",
    "deposit",
    "iframe",
    "cashout",
    "video",
    "loading",
  ] as const) {
    if (snapshot.matches(name)) return name
  }
  return "closed"
}

/**
 * How the player last acted: a pointer (mouse, finger) or the keyboard. Kept from the first screen
 * on (the modal layer loads later) so a dialog knows how it was opened and gives the focus back
 * without a focus ring to a chip clicked with the mouse.
 */
let lastInput: "pointer" | "keyboard" = "keyboard"
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", () => (lastInput = "pointer"), true)
  document.addEventListener("keydown", () => (lastInput = "keyboard"), true)
}
export const lastInputWasPointer = (): boolean => lastInput === "pointer"

let modalLayer: Promise<typeof import("./ModalLayer.tsx")> | undefined

const loadModalLayer = (): Promise<typeof import("./ModalLayer.tsx")> => {
  modalLayer ??= import("./ModalLayer.tsx").catch((error: unknown) => {
    modalLayer = undefined // offline or a replaced deploy: the next open tries again
    throw error
  })
  return modalLayer
}

/**
 * Warms the modal layer and the account flows; safe to call on every hover. It never fails: a
 * download that fails now is retried, and reported, when a modal really opens.
 */
export const prefetchModalLayer = (): void => {
  loadModalLayer().catch(() => undefined)
  prefetchFlows().catch(() => undefined)
}

const LazyModalLayer = lazy(() => loadModalLayer().then((m) => ({ default: m.ModalLayer })))

const Arriving = () => (
  <div className="modal__overlay modal__overlay--arriving">
    <Spinner label="Loading" />
  </div>
)

export const ModalHost = () => {
  const current = useSelector(useModalsActor(), openModal)
  if (current === "closed") return null
  return (
    <Suspense fallback={<Arriving />}>
      <LazyModalLayer />
    </Suspense>
  )
}
