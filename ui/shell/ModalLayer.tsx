/**
 * The open modal, inside one radix Dialog: whichever modal the modal-host machine says is open (one
 * at a time). Closing the dialog (X, overlay, Escape) sends CLOSE; the machine decides.
 *
 * Loaded on first need (`ModalHost` imports it lazily and prefetches it when the browser is idle):
 * radix and the account-flow views are not part of the player's first download.
 */
import { useSelector } from "@xstate/react"
import { Dialog } from "radix-ui"
import type { ReactNode } from "react"
import type { ActorRefFrom } from "xstate"
import type { confirmEmailMachine } from "../../machines/account/confirmEmail.machine.ts"
import type { forgotPasswordMachine } from "../../machines/account/forgotPassword.machine.ts"
import type { loginMachine } from "../../machines/account/login.machine.ts"
import type { registerMachine } from "../../machines/account/register.machine.ts"
import type { resetPasswordMachine } from "../../machines/account/resetPassword.machine.ts"
import type { cashoutMachine } from "../../machines/wallet/cashout.machine.ts"
import type { currencyMachine } from "../../machines/wallet/currency.machine.ts"
import type { depositMachine } from "../../machines/wallet/deposit.machine.ts"
import type { iframeMachine } from "../../machines/wallet/iframe.machine.ts"
import { ConfirmEmailView } from "../account/ConfirmEmailView.tsx"
import { ForgotPasswordView } from "../account/ForgotPasswordView.tsx"
import { LoginView } from "../account/LoginView.tsx"
import { RegisterView } from "../account/RegisterView.tsx"
import { ResetPasswordView } from "../account/ResetPasswordView.tsx"
import { useModalsActor, useShell } from "../app/actors.tsx"
import { CurrencyDropdown } from "../components/CurrencyDropdown.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { CashoutView, cashoutStep } from "../wallet/CashoutView.tsx"
import { CurrencyView } from "../wallet/CurrencyView.tsx"
import { DepositView } from "../wallet/DepositView.tsx"
import { IframeView } from "../wallet/IframeView.tsx"
import { lastInputWasPointer, openModal } from "./ModalHost.tsx"
import { VideoBody } from "./VideoBody.tsx"

/**
 * Where the focus goes back when the modals close. Radix gives it back only to a `Dialog.Trigger`
 * and the modals here are opened by the machine (from the header, the hero, a link…), so the
 * element that had the focus when the first of a run of modals opened is kept here; a modal
 * replacing another (login → register) keeps the original opener.
 */
let opener: HTMLElement | null = null
/** The opener was clicked or tapped, not reached with the keyboard. */
let openedByPointer = false

const rememberOpener = (): void => {
  const active = document.activeElement
  if (
    active instanceof HTMLElement &&
    active !== document.body &&
    active.closest('[role="dialog"]') === null
  ) {
    opener = active
    openedByPointer = lastInputWasPointer()
  }
}

/**
 * A pointer opened it: the focus goes back (keyboard users continue from there) but with no ring,
 * which Chrome would otherwise draw after typing in the dialog; the next key brings the ring back.
 */
const focusQuietly = (element: HTMLElement): void => {
  element.setAttribute("data-quiet-focus", "")
  const clear = () => element.removeAttribute("data-quiet-focus")
  element.addEventListener("blur", clear, { once: true })
  element.addEventListener("keydown", clear, { once: true })
  const options: FocusOptions & { focusVisible?: boolean } = { focusVisible: false }
  element.focus(options)
}

const returnFocus = (event: Event): void => {
  event.preventDefault()
  // Another modal took over (the machine switched modals): the focus stays in it.
  if (document.querySelector('[role="dialog"]') !== null) return
  if (opener?.isConnected) {
    if (openedByPointer) focusQuietly(opener)
    else opener.focus()
  }
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

/** The cashout's frame: gone at once while its flow closes (its form resets 500 ms later, unseen). */
const CashoutModal = ({
  actor,
  onClose,
}: {
  actor: ActorRefFrom<typeof cashoutMachine>
  onClose: () => void
}) => {
  const hidden = useSelector(actor, (s) => cashoutStep(s) === "hidden")
  return hidden ? null : (
    <Frame title="Cash out" onClose={onClose}>
      <CashoutView actor={actor} />
    </Frame>
  )
}

export const ModalLayer = () => {
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
      return (
        <Frame title="Log in" onClose={close}>
          {actor ? (
            <LoginView
              actor={actor}
              onSwitchToRegister={() => modals.send({ type: "SWITCH_TO_REGISTER" })}
              onForgotPassword={() => modals.send({ type: "OPEN_FORGOT_PASSWORD" })}
            />
          ) : (
            <Spinner label="Loading" />
          )}
        </Frame>
      )
    }
    case "register": {
      const actor = children.register as ActorRefFrom<typeof registerMachine> | undefined
      return (
        <Frame title="Sign up" onClose={close} wide>
          {actor ? (
            <RegisterView
              actor={actor}
              onSwitchToLogin={() => modals.send({ type: "SWITCH_TO_LOGIN" })}
              onOpenVideo={() => modals.send({ type: "OPEN_VIDEO" })}
              currencySelect={({ value, onChange }) => (
                <CurrencyDropdown
                  label="Currency"
                  value={value}
                  currencies={currencies}
                  onChange={onChange}
                />
              )}
            />
          ) : (
            <Spinner label="Loading" />
          )}
        </Frame>
      )
    }
    case "video":
      return (
        <Frame title="How to play" onClose={() => modals.send({ type: "CLOSE_VIDEO" })} wide>
          <VideoBody url={url} />
        </Frame>
      )
    case "forgotPassword": {
      const actor = children.forgotPassword as ActorRefFrom<typeof forgotPasswordMachine> | undefined
      return (
        <Frame title="Forgot password" onClose={close}>
          {actor ? (
            <ForgotPasswordView
              actor={actor}
              onBackToLogin={() => modals.send({ type: "SWITCH_TO_LOGIN" })}
            />
          ) : (
            <Spinner label="Loading" />
          )}
        </Frame>
      )
    }
    case "resetPassword": {
      const actor = children.resetPassword as ActorRefFrom<typeof resetPasswordMachine> | undefined
      return (
        <Frame title="Reset password" onClose={close}>
          {actor ? <ResetPasswordView actor={actor} /> : <Spinner label="Loading" />}
        </Frame>
      )
    }
    case "confirmEmail": {
      const actor = children.confirmEmail as ActorRefFrom<typeof confirmEmailMachine> | undefined
      return (
        <Frame title="E-mail confirmation" onClose={close}>
          {actor ? <ConfirmEmailView actor={actor} onClose={close} /> : <Spinner label="Loading" />}
        </Frame>
      )
    }
    case "currency": {
      const actor = children.currency as ActorRefFrom<typeof currencyMachine> | undefined
      return (
        <Frame title="Wallets" onClose={close}>
          {actor ? <CurrencyView actor={actor} /> : <Spinner label="Loading" />}
        </Frame>
      )
    }
    case "deposit": {
      const actor = children.deposit as ActorRefFrom<typeof depositMachine> | undefined
      return (
        <Frame title="Deposit" onClose={close} wide>
          {actor ? <DepositView actor={actor} /> : <Spinner label="Loading" />}
        </Frame>
      )
    }
    case "iframe": {
      const actor = children.iframe as ActorRefFrom<typeof iframeMachine> | undefined
      return (
        <Frame title="Payment" onClose={close} wide>
          {actor ? <IframeView actor={actor} /> : <Spinner label="Loading" />}
        </Frame>
      )
    }
    case "cashout": {
      const actor = children.cashout as ActorRefFrom<typeof cashoutMachine> | undefined
      return actor ? (
        <CashoutModal actor={actor} onClose={close} />
      ) : (
        <Frame title="Cash out" onClose={close}>
          <Spinner label="Loading" />
        </Frame>
      )
    }
    case "loading":
      return (
        <Frame title="Please wait" onClose={close} dismissible={false}>
          <Spinner label="Please wait" />
        </Frame>
      )
  }
}
