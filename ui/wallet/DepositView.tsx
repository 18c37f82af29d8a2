/**
 * View of machines/wallet/deposit.machine.ts (modal body): the amount step, the fiat method list, the
 * profile-completion step (the profile form's own view), the Jeton tabs, and a spinner while a call
 * runs. Thin: every message and every decision comes from the machines and the shared rules.
 *
 * Which actor each part reads and sends to: the dialog (`deposit`) says which step shows, and each
 * step is its own actor, the dialog's child (`snapshot.children.amount`, `.payment`, the payment's
 * `.profile`), read and sent to directly — as the profile form and the crypto form already were.
 * Why not have the dialog forward the steps' events: the view asks the step itself whether "Play
 * with" and the crypto currencies can be chosen (`snapshot.can`), and a dialog that forwarded them
 * would accept every one whatever the step's guards say; nor is there a list of forwarded events to
 * keep in step with the children. The dialog's own events (PAY_AGAIN, OTHER_METHOD, BACK from the
 * crypto form) go to the dialog.
 */
import { useSelector } from "@xstate/react"
import { Label } from "radix-ui"
import type { ActorRefFrom } from "xstate"
import type { couponCheckMachine } from "../../machines/couponCheck.machine.ts"
import type { depositAmountMachine } from "../../machines/wallet/deposit/depositAmount.machine.ts"
import type { depositPaymentMachine } from "../../machines/wallet/deposit/depositPayment.machine.ts"
import type { depositProfileMachine } from "../../machines/wallet/deposit/depositProfile.machine.ts"
import type { JetonTab } from "../../machines/wallet/deposit/types.ts"
import type { depositMachine } from "../../machines/wallet/deposit.machine.ts"
import {
  cryptoCurrencies,
  fiatCurrencies,
  minimumMessage,
  promotionOf,
  quickAmounts,
  quickAmountText,
  unlockHintOf,
} from "../../machines/wallet/support.ts"
import { type FiatMethod, formatAmount, MoneyConstants, MoneyMessages } from "../../services/money-rules.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { CouponFeedback } from "../components/CouponFeedback.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { ProfileFormView } from "../profile/ProfileFormView.tsx"
import { CryptoDepositView } from "./CryptoDepositView.tsx"
import "../profile/profile.css"
import "./wallet.css"

type DepositActor = ActorRefFrom<typeof depositMachine>
type AmountActor = ActorRefFrom<typeof depositAmountMachine>
type PaymentActor = ActorRefFrom<typeof depositPaymentMachine>
type ProfileStepActor = ActorRefFrom<typeof depositProfileMachine>
type CouponActor = ActorRefFrom<typeof couponCheckMachine>

/**
 * The fiat methods as the player sees them. The spec names one card and two e-wallet methods; we show
 * Skrill and Jeton as those two and MiFinity as a third e-wallet (docs/decisions.md).
 */
const methods: ReadonlyArray<{ readonly method: FiatMethod; readonly label: string; readonly hint: string }> =
  [
    { method: "card", label: "Card", hint: `Visa, Mastercard · ${MoneyConstants.cardFeeText}` },
    { method: "skrill", label: "Skrill", hint: "E-wallet" },
    { method: "jeton", label: "Jeton", hint: "Checkout, QR or Jeton Cash" },
    { method: "mifinity", label: "MiFinity", hint: "E-wallet" },
  ]

const jetonTabs: ReadonlyArray<{ readonly tab: JetonTab; readonly label: string }> = [
  { tab: "Checkout", label: "Checkout" },
  { tab: "QR", label: "QR code" },
  { tab: "Cash", label: "Jeton Cash" },
]

const Alert = ({ message }: { message: string | null }) =>
  message === null ? null : (
    <p className="form-error" role="alert">
      {message}
    </p>
  )

const AmountStep = ({
  actor,
  couponChecker,
}: {
  actor: AmountActor
  couponChecker: CouponActor | undefined
}) => {
  const currencies = useSelector(actor, (s) => fiatCurrencies(s.context.currencies))
  const cryptos = useSelector(actor, (s) => cryptoCurrencies(s.context.currencies))
  // Crypto opens its form at once, once the wallets are known (a missing wallet is added first).
  const cryptoReady = useSelector(actor, (s) =>
    cryptoCurrencies(s.context.currencies).every((c) => s.can({ type: "CRYPTO", currency: c.code })),
  )
  const currency = useSelector(actor, (s) => s.context.currency)
  const amountText = useSelector(actor, (s) => s.context.amountText)
  const couponOpen = useSelector(actor, (s) => s.context.couponOpen)
  const coupon = useSelector(actor, (s) => s.context.coupon)
  const minimum = useSelector(actor, (s) => minimumMessage(s.context))
  const promotion = useSelector(actor, (s) => promotionOf(s.context))
  const unlock = useSelector(actor, (s) => unlockHintOf(s.context))
  const offer = useSelector(actor, (s) => s.context.offer)
  const takeBonus = useSelector(actor, (s) => s.context.takeBonus)
  const message = useSelector(actor, (s) => s.context.message)
  const loadError = useSelector(actor, (s) =>
    s.matches({ editing: { basics: "failed" } }) ? s.context.loadError : null,
  )
  const minimumsFailed = useSelector(actor, (s) => s.matches({ editing: { minimums: "failed" } }))
  const loading = useSelector(
    actor,
    (s) => s.matches({ editing: { basics: "loading" } }) || s.matches({ editing: { minimums: "loading" } }),
  )
  const canPlay = useSelector(actor, (s) => s.can({ type: "PLAY" }))
  // The quick amount the typed amount equals, shown pressed (compared as the machine writes it).
  const pressed = useSelector(
    actor,
    (s) => quickAmounts.find((euros) => quickAmountText(s.context, euros) === s.context.amountText) ?? null,
  )

  return (
    <form
      className="deposit"
      aria-label="Deposit amount"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: "PLAY" })
      }}
    >
      <fieldset className="deposit__quick deposit__fieldset">
        <legend className="visually-hidden">Quick amounts</legend>
        {quickAmounts.map((euros) => (
          <button
            key={euros}
            type="button"
            className="button button--ghost"
            aria-pressed={pressed === euros}
            onClick={() => actor.send({ type: "QUICK", euros })}
          >
            {euros} EUR
          </button>
        ))}
      </fieldset>
      <div className="deposit__row">
        <div className="field deposit__amount">
          <Label.Root className="field__label" htmlFor="deposit-amount">
            Amount
          </Label.Root>
          <input
            id="deposit-amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            maxLength={MoneyConstants.amountMaxLength}
            value={amountText}
            aria-describedby="deposit-minimum"
            onChange={(event) => actor.send({ type: "AMOUNT", value: event.target.value })}
          />
        </div>
        <div className="field deposit__currency">
          <Label.Root className="field__label" htmlFor="deposit-currency">
            Currency
          </Label.Root>
          <select
            id="deposit-currency"
            className="input"
            value={currency}
            onChange={(event) => {
              const code = event.target.value
              actor.send(
                cryptos.some((c) => c.code === code)
                  ? { type: "CRYPTO", currency: code }
                  : { type: "CURRENCY", currency: code },
              )
            }}
          >
            {/* Spec section 2: two groups, Cryptocurrency and Fiat. */}
            {cryptos.length > 0 ? (
              <optgroup label="Cryptocurrency">
                {cryptos.map((c) => (
                  <option key={c.code} value={c.code} disabled={!cryptoReady}>
                    {currencyDisplayName(c.code)}
                  </option>
                ))}
              </optgroup>
            ) : null}
            <optgroup label="Fiat">
              {currencies.map((c) => (
                <option key={c.code} value={c.code}>
                  {currencyDisplayName(c.code)}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
      </div>
      <p id="deposit-minimum" className="deposit__note">
        {minimum ?? ""}
      </p>
      {promotion !== null && offer !== null ? <p className="deposit__promotion">{promotion}</p> : null}
      {promotion !== null && offer !== null && !(couponOpen && coupon.trim() !== "") ? (
        <fieldset className="deposit__bonus deposit__fieldset">
          <legend className="visually-hidden">Bonus</legend>
          <label className="deposit__bonus-choice">
            <input
              type="radio"
              name="deposit-bonus"
              checked={takeBonus}
              onChange={() => actor.send({ type: "BONUS", take: true })}
            />{" "}
            <span>
              Take the bonus{" "}
              <span className="muted">
                (wager it {offer.wageringMultiple}× within {offer.validDays} days, bets up to{" "}
                {formatAmount(BigInt(offer.maxBetEurCents), 100n)} EUR while it is active)
              </span>
              {unlock === null ? null : <span className="deposit__unlock">{unlock}</span>}
            </span>
          </label>
          <label className="deposit__bonus-choice">
            <input
              type="radio"
              name="deposit-bonus"
              checked={!takeBonus}
              onChange={() => actor.send({ type: "BONUS", take: false })}
            />{" "}
            No bonus
          </label>
        </fieldset>
      ) : null}
      <div className="deposit__coupon">
        <label className="deposit__toggle">
          <input
            type="checkbox"
            checked={couponOpen}
            onChange={() => actor.send({ type: "TOGGLE_COUPON" })}
          />{" "}
          I have a bonus code
        </label>
        {couponOpen ? (
          <div className="field">
            <Label.Root className="field__label" htmlFor="deposit-coupon">
              Bonus code
            </Label.Root>
            <input
              id="deposit-coupon"
              type="text"
              autoComplete="off"
              maxLength={64}
              value={coupon}
              onChange={(event) => actor.send({ type: "COUPON", value: event.target.value })}
              aria-describedby="deposit-coupon-check"
            />
            <CouponFeedback actor={couponChecker} id="deposit-coupon-check" />
          </div>
        ) : null}
      </div>
      <Alert message={loadError} />
      <Alert message={minimumsFailed ? MoneyMessages.minimumsFailed : null} />
      {loadError !== null || minimumsFailed ? (
        <button type="button" className="link-button" onClick={() => actor.send({ type: "RETRY" })}>
          Try again
        </button>
      ) : null}
      <Alert message={message} />
      <button type="submit" className="button button--primary button--block" disabled={!canPlay}>
        {loading ? "Loading…" : "Play with"}
      </button>
    </form>
  )
}

const MethodList = ({ actor }: { actor: PaymentActor }) => {
  const message = useSelector(actor, (s) => s.context.message)
  return (
    <div className="deposit">
      <ul className="deposit__methods" aria-label="Payment methods">
        {methods.map((m) => (
          <li key={m.method}>
            <button
              type="button"
              className="deposit__method"
              onClick={() => actor.send({ type: "CHOOSE_METHOD", method: m.method })}
            >
              <span className="deposit__method-name">{m.label}</span>
              <span className="deposit__method-hint">{m.hint}</span>
            </button>
          </li>
        ))}
      </ul>
      <Alert message={message} />
      <button type="button" className="link-button" onClick={() => actor.send({ type: "BACK" })}>
        Change the amount
      </button>
    </div>
  )
}

/**
 * The payment that just ended without the money: declined (the provider's reason in words) or
 * expired, with Try again (same method and amount, a new payment) and Choose another method.
 */
const PaymentEnded = ({ actor, expired }: { actor: DepositActor; expired: boolean }) => {
  const reason = useSelector(actor, (s) => s.context.declineReason)
  return (
    <div className="deposit" role="alert">
      <h3 className="deposit__note">{expired ? "Payment expired" : "Payment declined"}</h3>
      <p>
        {expired
          ? "This payment was not finished in time and has expired. No money was taken."
          : (reason ?? "The payment was declined.")}
      </p>
      <button
        type="button"
        className="button button--primary button--block"
        onClick={() => actor.send({ type: "PAY_AGAIN" })}
      >
        Try again
      </button>
      <button type="button" className="link-button" onClick={() => actor.send({ type: "OTHER_METHOD" })}>
        Choose another method
      </button>
    </div>
  )
}

const Back = ({ actor }: { actor: PaymentActor }) => (
  <button type="button" className="link-button" onClick={() => actor.send({ type: "BACK" })}>
    Other payment methods
  </button>
)

const ProfileStep = ({ payment, step }: { payment: PaymentActor; step: ProfileStepActor | undefined }) => {
  const form = useSelector(step, (s) => s?.children.completeProfile)
  return (
    <div className="deposit">
      <p className="deposit__note">This payment method needs a few more details first.</p>
      {form ? <ProfileFormView actor={form} saveLabel="Save and continue" /> : <Spinner label="Loading" />}
      <Back actor={payment} />
    </div>
  )
}

/** The payment step: the method list, the profile completion, the Jeton tabs, or a call running. */
const PaymentStep = ({ actor }: { actor: PaymentActor }) => {
  const step = useSelector(actor, (s) =>
    s.matches("methods")
      ? "methods"
      : s.matches("profile")
        ? "profile"
        : s.matches({ jeton: "choosing" })
          ? "jeton"
          : "busy",
  )
  const profileStep = useSelector(actor, (s) => s.children.profile)
  switch (step) {
    case "methods":
      return <MethodList actor={actor} />
    case "profile":
      return <ProfileStep payment={actor} step={profileStep} />
    case "jeton":
      return (
        <div className="deposit">
          <fieldset className="deposit__quick deposit__fieldset">
            <legend className="visually-hidden">Jeton</legend>
            {jetonTabs.map((t) => (
              <button
                key={t.tab}
                type="button"
                className="button button--ghost"
                onClick={() => actor.send({ type: "JETON", tab: t.tab })}
              >
                {t.label}
              </button>
            ))}
          </fieldset>
          <Back actor={actor} />
        </div>
      )
    case "busy":
      return <Spinner label="Please wait" />
  }
}

export const DepositView = ({ actor }: { actor: DepositActor }) => {
  const step = useSelector(actor, (s) =>
    s.matches("amount")
      ? "amount"
      : s.matches("payment")
        ? "payment"
        : s.matches("crypto")
          ? "crypto"
          : s.matches("declined")
            ? "declined"
            : s.matches("expired")
              ? "expired"
              : "busy",
  )
  const children = useSelector(actor, (s) => s.children)

  switch (step) {
    case "amount":
      return children.amount ? (
        <AmountStep actor={children.amount} couponChecker={children.coupon} />
      ) : (
        <Spinner label="Please wait" />
      )
    case "payment":
      return children.payment ? <PaymentStep actor={children.payment} /> : <Spinner label="Please wait" />
    case "crypto": {
      const form = children.cryptoDeposit
      return form ? (
        <CryptoDepositView actor={form} onBack={() => actor.send({ type: "BACK" })} />
      ) : (
        <Spinner label="Please wait" />
      )
    }
    case "declined":
      return <PaymentEnded actor={actor} expired={false} />
    case "expired":
      return <PaymentEnded actor={actor} expired={true} />
    case "busy":
      return <Spinner label="Please wait" />
  }
}
