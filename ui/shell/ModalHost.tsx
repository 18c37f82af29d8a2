/**
 * The modal host view: renders whichever modal the modal-host machine says is open (one at a time),
 * inside one radix Dialog. Closing the dialog (X, overlay, Escape) sends CLOSE; the machine decides.
 */
import { useSelector } from "@xstate/react"
import { Dialog } from "radix-ui"
import type { ReactNode } from "react"
import type { ActorRefFrom } from "xstate"
import type { confirmEmailMachine } from "../../machines/confirmEmail.machine.ts"
import type { forgotPasswordMachine } from "../../machines/forgotPassword.machine.ts"
import type { loginMachine } from "../../machines/login.machine.ts"
import type { registerMachine } from "../../machines/register.machine.ts"
import type { resetPasswordMachine } from "../../machines/resetPassword.machine.ts"
import { type ModalsActor, useModalsActor, useShell } from "../app/actors.tsx"
import { CurrencyDropdown } from "../components/CurrencyDropdown.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { ConfirmEmailView } from "../flows/ConfirmEmailView.tsx"
import { ForgotPasswordView } from "../flows/ForgotPasswordView.tsx"
import { LoginView } from "../flows/LoginView.tsx"
import { RegisterView } from "../flows/RegisterView.tsx"
import { ResetPasswordView } from "../flows/ResetPasswordView.tsx"
import { VideoBody } from "./VideoBody.tsx"

type OpenModal =
  | "closed"
  | "login"
  | "register"
  | "video"
  | "forgotPassword"
  | "resetPassword"
  | "confirmEmail"
  | "loading"

const openModal = (snapshot: ReturnType<ModalsActor["getSnapshot"]>): OpenModal => {
  if (snapshot.matches({ register: "video" })) return "video"
  for (const name of [
    "login",
    "register",
    "forgotPassword",
    "resetPassword",
    "confirmEmail",
    "video",
    "loading",
  ] as const) {
    if (snapshot.matches(name)) return name
  }
  return "closed"
}

/**
 * Where the focus goes back when the modals close. Radix gives it back only to a `Dialog.Trigger`
 * and the modals here are opened by the machine (from the header, the hero, a link…), so the
 * element that had the focus when the first of a run of modals opened is kept here; a modal
 * replacing another (login → register) keeps the original opener.
 */
let opener: HTMLElement | null = null

const rememberOpener = (): void => {
  const active = document.activeElement
  if (
    active instanceof HTMLElement &&
    active !== document.body &&
    active.closest('[role="dialog"]') === null
  ) {
    opener = active
  }
}

const returnFocus = (event: Event): void => {
  event.preventDefault()
  // Another modal took over (the machine switched modals): the focus stays in it.
  if (document.querySelector('[role="dialog"]') !== null) return
  if (opener?.isConnected) opener.focus()
  opener = null
}

const Frame = ({
  title,
  onClose,
  children,
  wide,
  dismissible = true,
}: {
  title: string
  onClose: () => void
  children: ReactNode
  wide?: boolean
  dismissible?: boolean
}) => (
  <Dialog.Root open onOpenChange={(open) => (open || !dismissible ? undefined : onClose())}>
    <Dialog.Portal>
      <Dialog.Overlay className="modal__overlay" />
      <Dialog.Content
        className={wide ? "modal modal--wide" : "modal"}
        aria-describedby={undefined}
        onOpenAutoFocus={rememberOpener}
        onCloseAutoFocus={returnFocus}
      >
        <div className="modal__header">
          <Dialog.Title className="modal__title">{title}</Dialog.Title>
          {dismissible ? (
            <Dialog.Close className="modal__close" aria-label="Close">
              ×
            </Dialog.Close>
          ) : null}
        </div>
        <div className="modal__body">{children}</div>
      </Dialog.Content>
    </Dialog.Portal>
  </Dialog.Root>
)

export const ModalHost = () => {
  const modals = useModalsActor()
  const current = useSelector(modals, openModal)
  const children = useSelector(modals, (s) => s.children)
  const url = useSelector(modals, (s) => s.context.content.url)
  const currencies = useShell((s) => s.context.currencies)
  const close = () => modals.send({ type: "CLOSE" })

  switch (current) {
    case "closed":
      return null
    case "login": {
      const actor = children.login as ActorRefFrom<typeof loginMachine> | undefined
      return actor ? (
        <Frame title="Log in" onClose={close}>
          <LoginView
            actor={actor}
            onSwitchToRegister={() => modals.send({ type: "SWITCH_TO_REGISTER" })}
            onForgotPassword={() => modals.send({ type: "OPEN_FORGOT_PASSWORD" })}
          />
        </Frame>
      ) : null
    }
    case "register": {
      const actor = children.register as ActorRefFrom<typeof registerMachine> | undefined
      return actor ? (
        <Frame title="Sign up" onClose={close} wide>
          <RegisterView
            actor={actor}
            onSwitchToLogin={() => modals.send({ type: "SWITCH_TO_LOGIN" })}
            onOpenVideo={() => modals.send({ type: "OPEN_VIDEO" })}
            currencySelect={({ value, onChange }) => (
              <CurrencyDropdown label="Currency" value={value} currencies={currencies} onChange={onChange} />
            )}
          />
        </Frame>
      ) : null
    }
    case "video":
      return (
        <Frame title="How to play" onClose={() => modals.send({ type: "CLOSE_VIDEO" })} wide>
          <VideoBody url={url} />
        </Frame>
      )
    case "forgotPassword": {
      const actor = children.forgotPassword as ActorRefFrom<typeof forgotPasswordMachine> | undefined
      return actor ? (
        <Frame title="Forgot password" onClose={close}>
          <ForgotPasswordView actor={actor} onBackToLogin={() => modals.send({ type: "SWITCH_TO_LOGIN" })} />
        </Frame>
      ) : null
    }
    case "resetPassword": {
      const actor = children.resetPassword as ActorRefFrom<typeof resetPasswordMachine> | undefined
      return actor ? (
        <Frame title="Reset password" onClose={close}>
          <ResetPasswordView actor={actor} />
        </Frame>
      ) : null
    }
    case "confirmEmail": {
      const actor = children.confirmEmail as ActorRefFrom<typeof confirmEmailMachine> | undefined
      return actor ? (
        <Frame title="E-mail confirmation" onClose={close}>
          <ConfirmEmailView actor={actor} onClose={close} />
        </Frame>
      ) : null
    }
    case "loading":
      return (
        <Frame title="Please wait" onClose={close} dismissible={false}>
          <Spinner label="Please wait" />
        </Frame>
      )
  }
}
