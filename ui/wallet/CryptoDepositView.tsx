/**
 * View of machines/wallet/cryptoDeposit.machine.ts: the crypto form of the deposit modal
 * with its two tabs (radix Tabs). Deposit: the player's address as a QR code of the chain's payment
 * URI, in a monospace block with Copy (feedback 2 s, the machine's timer), the network, the
 * confirmations required, the minimum warning, and the transfers to the address as they happen.
 * Buy crypto: the purchase widgets, one of them open in a frame. Thin: useSelector and send only.
 */
import { useSelector } from "@xstate/react"
import { QRCodeSVG } from "qrcode.react"
import { Tabs } from "radix-ui"
import { useEffect } from "react"
import type { ActorRefFrom } from "xstate"
import { type cryptoDepositMachine, WidgetMessages } from "../../machines/wallet/cryptoDeposit.machine.ts"
import {
  CryptoMessages,
  confirmationsText,
  feeText,
  minimumWarning,
  networkLabels,
  transferAmountText,
  transferStatusLabel,
} from "../../machines/wallet/cryptoSupport.ts"
import { depositQrUri, shortenHash } from "../../services/crypto-uri.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { Spinner } from "../components/Spinner.tsx"
import "./wallet.css"

type Actor = ActorRefFrom<typeof cryptoDepositMachine>

const CopyButton = ({ actor }: { actor: Actor }) => {
  const copy = useSelector(actor, (s) =>
    s.matches({ ready: { copy: "copied" } })
      ? "copied"
      : s.matches({ ready: { copy: "copyFailed" } })
        ? "failed"
        : s.matches({ ready: { copy: "copying" } })
          ? "copying"
          : "idle",
  )
  return (
    <>
      <button
        type="button"
        className="button button--primary crypto__copy"
        data-copied={copy === "copied"}
        onClick={() => actor.send({ type: "COPY" })}
      >
        {copy === "copied" ? `✓ ${CryptoMessages.copied}` : "Copy address"}
      </button>
      {/* Read out by screen readers when it changes; empty while there is nothing to say. */}
      <span className="crypto__copy-status" role="status" aria-live="polite">
        {copy === "copied" ? "Address copied" : copy === "failed" ? CryptoMessages.copyFailed : ""}
      </span>
    </>
  )
}

const Transfers = ({ actor }: { actor: Actor }) => {
  const transfers = useSelector(actor, (s) => s.context.transfers)
  const currency = useSelector(actor, (s) => s.context.currency)
  const currencies = useSelector(actor, (s) => s.context.currencies)
  const loading = useSelector(actor, (s) => s.matches({ ready: { transfers: "loading" } }))
  return (
    <section className="crypto__transfers" aria-labelledby="crypto-transfers-title">
      <h3 id="crypto-transfers-title" className="crypto__subtitle">
        Your transfers
      </h3>
      {loading && transfers.length === 0 ? (
        <Spinner label="Loading your transfers" />
      ) : transfers.length === 0 ? (
        <p className="deposit__note">{CryptoMessages.noTransfers}</p>
      ) : (
        <ul className="crypto__list" aria-label="Transfers to this address">
          {transfers.map((t) => (
            <li key={t.id} className="crypto__transfer" data-status={t.status}>
              <span className="crypto__amount">
                {transferAmountText(currencies, currency, t.amount)} {currencyDisplayName(currency)}
              </span>
              <span className={`badge crypto__status crypto__status--${t.status}`}>
                {transferStatusLabel(t.status)}
              </span>
              <span className="crypto__confirmations muted">{confirmationsText(t)}</span>
              <code className="crypto__hash muted" title={t.txHash}>
                {shortenHash(t.txHash)}
              </code>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

const DepositPanel = ({ actor }: { actor: Actor }) => {
  const address = useSelector(actor, (s) => s.context.address)
  const currencies = useSelector(actor, (s) => s.context.currencies)
  if (address === null) return null
  const name = currencyDisplayName(address.currency)
  const minimum = minimumWarning(currencies, address)
  return (
    <div className="crypto__deposit">
      <div className="crypto__qr">
        <QRCodeSVG
          value={depositQrUri(address)}
          size={176}
          marginSize={2}
          title={`QR code of your ${name} deposit address`}
          role="img"
          aria-label={`QR code of your ${name} deposit address`}
        />
      </div>
      <div className="crypto__details">
        <p className="crypto__lead">
          Send only <strong>{name}</strong> on the {networkLabels[address.network]} network to this address:
        </p>
        <code id="crypto-address" className="crypto__address">
          {address.address}
        </code>
        <div className="crypto__copy-row">
          <CopyButton actor={actor} />
        </div>
        <dl className="crypto__facts">
          <div>
            <dt>Network</dt>
            <dd>{networkLabels[address.network]}</dd>
          </div>
          <div>
            <dt>Confirmations required</dt>
            <dd>{address.confirmations}</dd>
          </div>
        </dl>
        {minimum !== null ? (
          <p className="crypto__warning" role="note">
            <strong>{minimum}.</strong> {CryptoMessages.belowMinimumRule}
          </p>
        ) : null}
      </div>
    </div>
  )
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url, window.location.href).origin
  } catch {
    return null
  }
}

/** The widget's frame: its `load`, or the browser's refusal to frame its origin, go to the machine. */
const WidgetFrame = ({ actor, url, title }: { actor: Actor; url: string; title: string }) => {
  useEffect(() => {
    const origin = originOf(url)
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.effectiveDirective === "frame-src" && originOf(event.blockedURI) === origin)
        actor.send({ type: "FRAME_BLOCKED" })
    }
    document.addEventListener("securitypolicyviolation", onViolation)
    return () => document.removeEventListener("securitypolicyviolation", onViolation)
  }, [actor, url])
  return (
    <iframe
      className="crypto__frame"
      src={url}
      title={title}
      onLoad={() => actor.send({ type: "FRAME_LOADED" })}
      // A payment widget runs its own scripts and forms, keeps its session (same-origin for its
      // own cookies) and may open a bank's 3-D Secure window; it may not navigate the casino page.
      sandbox="allow-scripts allow-forms allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      allow="payment; clipboard-write"
      referrerPolicy="no-referrer"
    />
  )
}

const BuyPanel = ({ actor }: { actor: Actor }) => {
  const widgets = useSelector(actor, (s) => s.context.address?.widgets ?? [])
  const widget = useSelector(actor, (s) =>
    s.matches({ ready: { buy: "widget" } }) ? s.context.widget : null,
  )
  const failed = useSelector(actor, (s) => s.matches({ ready: { buy: { widget: "failed" } } }))
  const failure = useSelector(actor, (s) => s.context.widgetFailure)
  const attempt = useSelector(actor, (s) => s.context.widgetAttempt)
  const currency = useSelector(actor, (s) => s.context.currency)
  if (widget !== null) {
    return (
      <div className="crypto__widget">
        <button type="button" className="link-button" onClick={() => actor.send({ type: "WIDGETS" })}>
          ← All purchase options
        </button>
        {failed ? (
          <div className="crypto__frame crypto__frame--failed" role="alert">
            <p>
              <strong>{WidgetMessages.loadFailed}</strong>
            </p>
            {failure === null ? null : <p>{WidgetMessages[failure]}</p>}
            <button
              type="button"
              className="button button--primary"
              onClick={() => actor.send({ type: "RETRY_WIDGET" })}
            >
              Try again
            </button>
          </div>
        ) : (
          <WidgetFrame
            key={attempt}
            actor={actor}
            url={widget.url}
            title={`${widget.name}: buy ${currencyDisplayName(currency)}`}
          />
        )}
      </div>
    )
  }
  return (
    <div className="crypto__buy">
      <p className="deposit__note">
        Buy {currencyDisplayName(currency)} with a card: it is sent to your deposit address and credited once
        confirmed.
      </p>
      <ul className="crypto__widgets" aria-label="Purchase options">
        {widgets.map((w) => (
          <li key={w.id}>
            <button
              type="button"
              className="crypto__widget-card"
              onClick={() => actor.send({ type: "CHOOSE_WIDGET", id: w.id })}
            >
              <span className="crypto__widget-name">{w.name}</span>
              <span className="crypto__widget-facts">
                <span>Fee {feeText(w.feeBps)}</span>
                <span>About {w.etaMinutes} minutes</span>
                <span>Verification above {w.verificationAboveEur} EUR</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

export const CryptoDepositView = ({ actor, onBack }: { actor: Actor; onBack: () => void }) => {
  const step = useSelector(actor, (s) =>
    s.matches("loading")
      ? "loading"
      : s.matches("failed")
        ? "failed"
        : s.matches("unavailable")
          ? "unavailable"
          : "ready",
  )
  const unavailable = useSelector(actor, (s) => s.context.unavailable)
  const tab = useSelector(actor, (s) => s.context.tab)
  const currency = useSelector(actor, (s) => s.context.currency)
  const back = (
    <button type="button" className="link-button" onClick={onBack}>
      Choose another currency
    </button>
  )
  if (step === "loading") return <Spinner label={`Loading your ${currencyDisplayName(currency)} address`} />
  if (step === "unavailable") {
    return (
      <div className="deposit">
        <div className="notice" role="alert">
          {unavailable}
        </div>
        {back}
      </div>
    )
  }
  if (step === "failed") {
    return (
      <div className="deposit">
        <div className="notice" role="alert">
          {CryptoMessages.addressFailed}{" "}
          <button type="button" className="link-button" onClick={() => actor.send({ type: "RETRY" })}>
            Try again
          </button>
        </div>
        {back}
      </div>
    )
  }
  return (
    <div className="deposit crypto">
      <Tabs.Root
        value={tab}
        onValueChange={(value) => actor.send({ type: "TAB", tab: value === "buy" ? "buy" : "deposit" })}
      >
        <Tabs.List className="crypto__tabs" aria-label={`${currencyDisplayName(currency)} deposit`}>
          <Tabs.Trigger className="crypto__tab" value="buy">
            Buy crypto
          </Tabs.Trigger>
          <Tabs.Trigger className="crypto__tab" value="deposit">
            Deposit
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="crypto__panel" value="deposit">
          <DepositPanel actor={actor} />
          <Transfers actor={actor} />
        </Tabs.Content>
        <Tabs.Content className="crypto__panel" value="buy">
          <BuyPanel actor={actor} />
        </Tabs.Content>
      </Tabs.Root>
      {back}
    </div>
  )
}
