/**
 * The bonuses tab: the active bonus with its wagering progress and expiry, the offers the player
 * may take for their next deposit with their terms, a bonus code, and the history. A projection of
 * the `bonuses` machine: forfeiting shows what is lost and asks first.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { BonusesMessages, type bonusesMachine } from "../../machines/profile/bonuses.machine.ts"
import {
  bonusDaysLeft,
  freeSpinsText,
  freeSpinWalletLabels,
  offerTermsText,
  wageringPercent as percentOf,
  bonusStatusLabels as statusLabels,
  unlockedTotal,
  winUnlockText,
} from "../../services/bonus-rules.ts"
import type { FreeSpinWallet, PlayerBonus, Promotion } from "../../services/bonus-service.ts"
import { formatMinorUnits } from "../../services/money.ts"
import { useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { Link } from "../components/Link.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { ConfirmDialog, Field, invalidProps, LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"

type Actor = ActorRefFrom<typeof bonusesMachine>

const ActiveBonus = ({ bonus, actor }: { bonus: PlayerBonus; actor: Actor }) => {
  const currencies = useShell((s) => s.context.currencies)
  const progress = percentOf(bonus.wagered, bonus.wageringRequired)
  const spins = freeSpinsText(bonus.freeRounds)
  const money = (minor: string) => (
    <>
      <Amount minor={minor} currency={bonus.currency} currencies={currencies} /> {bonus.currency}
    </>
  )
  return (
    <section className="bonus-card" aria-labelledby={`bonus-${bonus.id}`}>
      <header className="bonus-card__head">
        <h3 id={`bonus-${bonus.id}`}>{bonus.name}</h3>
        <span className="badge">{statusLabels.active}</span>
      </header>
      <p className="bonus-card__amount">
        {money(bonus.balance)} <span className="muted">bonus money of {money(bonus.amount)} granted</span>
      </p>
      <div className="bonus-card__progress">
        <div className="bonus-card__progress-label">
          <span>Wagering</span>
          <span>
            {money(bonus.wagered)} of {money(bonus.wageringRequired)}
          </span>
        </div>
        <div
          className="progress"
          role="progressbar"
          aria-label="Wagering progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
        >
          <div className="progress__bar" style={{ width: `${progress}%` }} />
        </div>
      </div>
      {spins === null || bonus.freeRounds === null || bonus.freeRounds === undefined ? null : (
        <p className="bonus-card__spins">
          <strong>{spins}</strong>
          {bonus.freeRounds.status === "active" || bonus.freeRounds.status === "pending" ? (
            <>
              {" "}
              at {money(bonus.freeRounds.bet)} in{" "}
              <Link to={`/game/${bonus.freeRounds.gameId}`}>{bonus.freeRounds.gameName}</Link>; what they win
              is bonus money.
            </>
          ) : null}
        </p>
      )}
      <dl className="bonus-card__terms">
        <dt>Largest bet</dt>
        <dd>{money(bonus.maxBet)}</dd>
        <dt>Expires</dt>
        <dd>
          {formatDateTime(bonus.expiresAt)} ({bonusDaysLeft(bonus.expiresAt, Date.now())} days left)
        </dd>
      </dl>
      <p className="muted">
        Your cash is played first, then bonus money; wins are paid in the same proportion. Once the wagering
        is met, the bonus money becomes cash you can withdraw.
      </p>
      <button
        type="button"
        className="button button--ghost"
        onClick={() => actor.send({ type: "FORFEIT", id: bonus.id })}
      >
        Forfeit bonus
      </button>
    </section>
  )
}

/** Free spins granted without a deposit: the spins, what they won (held), and what unlocks it. */
const WaitingSpins = ({ wallet }: { wallet: FreeSpinWallet }) => {
  const currencies = useShell((s) => s.context.currencies)
  const known = currencies.find((c) => c.code === wallet.currency)
  const text = (minor: string) =>
    `${known === undefined ? minor : formatMinorUnits(minor, known.subunits_to_unit)} ${wallet.currency}`
  const spins = freeSpinsText(wallet.freeRounds)
  const rounds = wallet.freeRounds
  return (
    <section className="bonus-card bonus-card--spins" aria-labelledby={`spins-${wallet.id}`}>
      <header className="bonus-card__head">
        <h3 id={`spins-${wallet.id}`}>{wallet.name}</h3>
        <span className="badge">{freeSpinWalletLabels.locked}</span>
      </header>
      {spins === null || rounds === null ? null : (
        <p className="bonus-card__spins">
          <strong>{spins}</strong>
          {rounds.status === "active" || rounds.status === "pending" ? (
            <>
              {" "}
              at {text(rounds.bet)} in <Link to={`/game/${rounds.gameId}`}>{rounds.gameName}</Link>.
            </>
          ) : null}
        </p>
      )}
      <p className="bonus-card__amount">
        {text(wallet.balance)} <span className="muted">won so far, kept for you</span>
      </p>
      <p>
        {winUnlockText({
          deposit: text(wallet.winUnlockConfig.depositAmount),
          extraBonusPercent: wallet.winUnlockConfig.extraBonusPercent,
          max: text(wallet.maxUnlock),
        })}
      </p>
      <dl className="bonus-card__terms">
        <dt>Expires</dt>
        <dd>
          {formatDateTime(wallet.expiresAt)} ({bonusDaysLeft(wallet.expiresAt, Date.now())} days left)
        </dd>
      </dl>
    </section>
  )
}

const Offer = ({ offer, actor, busy }: { offer: Promotion; actor: Actor; busy: boolean }) => (
  <li className="offer">
    <div className="offer__what">
      <strong>{offer.name}</strong>
      {offer.accepted === true ? <span className="badge">Taken</span> : null}
      {offer.accepted === false ? <span className="badge badge--warning">Declined</span> : null}
      <p>{offer.description}</p>
      <p className="muted">{offerTermsText(offer)}</p>
    </div>
    <div className="offer__actions">
      <button
        type="button"
        className="button button--primary"
        disabled={busy || offer.accepted === true}
        onClick={() => actor.send({ type: "ACCEPT", id: offer.id })}
      >
        Take offer
      </button>
      <button
        type="button"
        className="button button--ghost"
        disabled={busy || offer.accepted === false}
        onClick={() => actor.send({ type: "DECLINE", id: offer.id })}
      >
        No, thanks
      </button>
    </div>
  </li>
)

export const BonusesTab = ({ actor }: { actor: Actor }) => {
  const currencies = useShell((s) => s.context.currencies)
  const bonuses = useSelector(actor, (s) => s.context.bonuses)
  const wallets = useSelector(actor, (s) => s.context.freeSpinWallets)
  const offers = useSelector(actor, (s) => s.context.offers)
  const selected = useSelector(actor, (s) => s.context.selected)
  const code = useSelector(actor, (s) => s.context.code)
  const codeError = useSelector(actor, (s) => s.context.codeError)
  const view = useSelector(actor, (s) =>
    s.matches("loading")
      ? "loading"
      : s.matches("loadFailed")
        ? "loadFailed"
        : s.matches("confirmingForfeit")
          ? "confirming"
          : s.matches("forfeiting")
            ? "forfeiting"
            : s.matches("ready")
              ? "ready"
              : "busy",
  )
  const loaded = bonuses.length > 0 || offers.promotions.length > 0 || offers.optedOut
  if (view === "loading" && !loaded) return <Spinner label="Loading your bonuses" />
  if (view === "loadFailed")
    return <LoadFailed message={BonusesMessages.loadFailed} onRetry={() => actor.send({ type: "RETRY" })} />

  const active = bonuses.filter((b) => b.status === "active")
  const ended = bonuses.filter((b) => b.status !== "active")
  const waiting = wallets.filter((w) => w.status === "locked")
  const spent = wallets.filter((w) => w.status !== "locked")
  const busy = view !== "ready"
  return (
    <div className="profile__section bonuses" aria-busy={view === "loading"}>
      <h2>Active bonus</h2>
      {active.length === 0 ? (
        <p className="muted">No bonus is active. Take an offer below, then deposit.</p>
      ) : (
        active.map((b) => <ActiveBonus key={b.id} bonus={b} actor={actor} />)
      )}

      {waiting.length === 0 ? null : (
        <>
          <h2>Free spins</h2>
          {waiting.map((w) => (
            <WaitingSpins key={w.id} wallet={w} />
          ))}
        </>
      )}

      <h2 id="bonus-offers-title">Offers for your next deposit</h2>
      {offers.optedOut ? (
        <p className="muted">You opted out of bonus offers. Taking one with a bonus code opts you back in.</p>
      ) : offers.promotions.length === 0 ? (
        <p className="muted">No offer for your next deposit.</p>
      ) : (
        <>
          {active.length === 0 ? null : (
            <p className="muted">
              One bonus at a time: a deposit made while this one is active earns no new bonus.
            </p>
          )}
          <ul className="offers" aria-labelledby="bonus-offers-title">
            {offers.promotions.map((o) => (
              <Offer key={o.id} offer={o} actor={actor} busy={busy} />
            ))}
          </ul>
        </>
      )}

      <form
        className="bonus-code"
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: "REDEEM" })
        }}
      >
        <Field id="bonus-code" label="Bonus code" error={codeError ?? undefined}>
          <input
            id="bonus-code"
            name="bonus-code"
            type="text"
            autoComplete="off"
            {...invalidProps("bonus-code", codeError ?? undefined)}
            value={code}
            maxLength={32}
            onChange={(e) => actor.send({ type: "CODE", value: e.target.value })}
          />
        </Field>
        <button type="submit" className="button button--primary" disabled={busy || code.trim().length < 3}>
          Use code
        </button>
      </form>

      {ended.length === 0 && spent.length === 0 ? null : (
        <>
          <h2 id="bonus-history-title">History</h2>
          <ul className="bonus-history" aria-labelledby="bonus-history-title">
            {ended.map((b) => (
              <li key={b.id} className="bonus-history__item">
                <strong>{b.name}</strong>
                <span>
                  <Amount minor={b.amount} currency={b.currency} currencies={currencies} /> {b.currency}
                </span>
                <span className="muted">{statusLabels[b.status]}</span>
                <span className="muted">{b.endedAt === null ? "" : formatDateTime(b.endedAt)}</span>
              </li>
            ))}
            {spent.map((w) => (
              <li key={w.id} className="bonus-history__item">
                <strong>{w.name}</strong>
                <span>
                  {w.status === "unlocked" ? (
                    <>
                      <Amount minor={unlockedTotal(w)} currency={w.currency} currencies={currencies} />{" "}
                      {w.currency}
                    </>
                  ) : null}
                </span>
                <span className="muted">{freeSpinWalletLabels[w.status]}</span>
                <span className="muted">{w.status === "expired" ? formatDateTime(w.expiresAt) : ""}</span>
              </li>
            ))}
          </ul>
        </>
      )}

      {offers.optedOut ? null : (
        <p className="muted">
          Rather not be offered bonuses?{" "}
          <button
            type="button"
            className="link-button"
            disabled={busy}
            onClick={() => actor.send({ type: "OPT_OUT" })}
          >
            Opt out of bonus offers
          </button>
        </p>
      )}

      {(view === "confirming" || view === "forfeiting") && selected !== null ? (
        <ConfirmDialog
          title="Forfeit this bonus?"
          confirmLabel="Forfeit bonus"
          busy={view === "forfeiting"}
          danger
          onConfirm={() => actor.send({ type: "CONFIRM" })}
          onCancel={() => actor.send({ type: "CANCEL" })}
        >
          <p>
            You lose{" "}
            <strong>
              <Amount minor={selected.balance} currency={selected.currency} currencies={currencies} />{" "}
              {selected.currency}
            </strong>{" "}
            of bonus money and what it has won. Your cash is not touched.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  )
}
