/**
 * One player's page: who they are, their money, their play, their sessions, responsible gaming,
 * documents, bonuses and loyalty, the staff's notes and the balance adjustments; and what the
 * operator's role may do to the player (lock, force sign-out, adjust the balance, note). Controls a
 * role cannot use are not shown; the server refuses them anyway.
 */
import type { Effect } from "effect"
import { type FormEvent, type ReactNode, useCallback, useId, useState } from "react"
import { playersClient } from "../../services/backoffice/clients/players.ts"
import type { Permission } from "../../services/backoffice/permissions.ts"
import type { Adjustment, PlayerPage as Page } from "../../services/backoffice/players.ts"
import { type Action, useAction, useResource, useSession } from "./actors.tsx"
import { decimalsOfCurrency, signedMinor, toMinor } from "./amount.ts"
import { money, when } from "./format.ts"
import { ResourceState } from "./Layout.tsx"
import { AdjustmentDecision, KycBadge, LockBadge, signedMoney } from "./PlayerParts.tsx"
import { type Tab, TabPanel, Tabs } from "./PlayerTabs.tsx"

type Section =
  | "overview"
  | "ledger"
  | "deposits"
  | "withdrawals"
  | "bets"
  | "sessions"
  | "rg"
  | "documents"
  | "bonuses"
  | "notes"
  | "adjustments"

const sections: ReadonlyArray<Tab<Section>> = [
  { id: "overview", label: "Overview" },
  { id: "ledger", label: "Ledger" },
  { id: "deposits", label: "Deposits" },
  { id: "withdrawals", label: "Withdrawals" },
  { id: "bets", label: "Bets" },
  { id: "sessions", label: "Sessions" },
  { id: "rg", label: "Responsible gaming" },
  { id: "documents", label: "Documents" },
  { id: "bonuses", label: "Bonuses & loyalty" },
  { id: "notes", label: "Notes" },
  { id: "adjustments", label: "Adjustments" },
]

const dash = (value: string | null | undefined): string =>
  value === null || value === undefined || value === "" ? "—" : value

/** An empty list said in words rather than an empty table. */
const Empty = ({ children }: { readonly children: string }) => <p className="bo-muted bo-empty">{children}</p>

const Table = ({
  caption,
  head,
  children,
}: {
  readonly caption: string
  readonly head: ReadonlyArray<string | { readonly label: string; readonly num: true }>
  readonly children: ReactNode
}) => (
  <div className="bo-table-wrap">
    <table className="bo-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {head.map((h) =>
            typeof h === "string" ? (
              <th key={h} scope="col">
                {h}
              </th>
            ) : (
              <th key={h.label} scope="col" className="bo-num">
                {h.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
)

const Facts = ({ facts }: { readonly facts: ReadonlyArray<readonly [string, ReactNode]> }) => (
  <dl className="bo-facts">
    {facts.map(([term, value]) => (
      <div key={term}>
        <dt>{term}</dt>
        <dd>{value}</dd>
      </div>
    ))}
  </dl>
)

// ── Actions ────────────────────────────────────────────────────────────────────────────────

/** A reason and a confirm button: lock and unlock (the API requires the reason). */
const ReasonForm = ({
  action,
  label,
  submitLabel,
  danger,
  run,
}: {
  readonly action: Action
  readonly label: string
  readonly submitLabel: string
  readonly danger: boolean
  readonly run: (reason: string) => Effect.Effect<unknown, unknown>
}) => {
  const [reason, setReason] = useState("")
  const id = useId()
  return (
    <form
      className="bo-form-row bo-inline-form"
      onSubmit={(event) => {
        event.preventDefault()
        action.submit(() => run(reason.trim()), reason)
      }}
    >
      <label htmlFor={id} className="bo-grow">
        {label}
        <input
          id={id}
          value={reason}
          maxLength={500}
          required
          onChange={(event) => setReason(event.currentTarget.value)}
        />
      </label>
      <button
        type="submit"
        className={danger ? "bo-button bo-button--danger" : "bo-button bo-button--primary"}
        disabled={action.state === "submitting"}
      >
        {submitLabel}
      </button>
      <button type="button" className="bo-button" onClick={action.cancel}>
        Cancel
      </button>
    </form>
  )
}

const formOpen = (action: Action) =>
  action.state === "editing" || action.state === "submitting" || action.state === "failed"

const LockControl = ({ page, onChanged }: { readonly page: Page; readonly onChanged: () => void }) => {
  const action = useAction(onChanged)
  const id = page.profile.id
  const locked = page.profile.locked !== null
  const result =
    action.state === "done" ? (action.result as { locked: boolean; sessionsEnded: number }) : null
  return (
    <div className="bo-action">
      {!formOpen(action) && (
        <button
          type="button"
          className={locked ? "bo-button" : "bo-button bo-button--danger"}
          onClick={action.open}
        >
          {locked ? "Unlock player" : "Lock player"}
        </button>
      )}
      {formOpen(action) && (
        <ReasonForm
          action={action}
          label={locked ? "Reason for unlocking" : "Reason for locking"}
          submitLabel={locked ? "Unlock" : "Lock"}
          danger={!locked}
          run={(reason) =>
            locked
              ? playersClient.unlockPlayer({ params: { id }, payload: { reason } })
              : playersClient.lockPlayer({ params: { id }, payload: { reason } })
          }
        />
      )}
      {result && (
        <p className="bo-success" role="status">
          {result.locked
            ? `Locked. ${result.sessionsEnded === 1 ? "1 session" : `${result.sessionsEnded} sessions`} ended.`
            : "Unlocked: the player can sign in again."}
        </p>
      )}
      {action.error && (
        <p className="bo-error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  )
}

const SignOutControl = ({ page, onChanged }: { readonly page: Page; readonly onChanged: () => void }) => {
  const action = useAction(onChanged)
  const result = action.state === "done" ? (action.result as { sessionsEnded: number }) : null
  const active = page.sessions.filter((s) => s.active).length
  return (
    <div className="bo-action">
      {!formOpen(action) && (
        <button type="button" className="bo-button" onClick={action.open}>
          Force sign-out
        </button>
      )}
      {formOpen(action) && (
        <fieldset className="bo-confirm">
          <legend className="visually-hidden">Confirm the sign-out</legend>
          <p>
            End every session of {page.profile.email}?{" "}
            {active === 1 ? "1 session is" : `${active} sessions are`} active.
          </p>
          <div className="bo-row">
            <button
              type="button"
              className="bo-button bo-button--danger"
              disabled={action.state === "submitting"}
              onClick={() =>
                action.submit(() => playersClient.signOutPlayer({ params: { id: page.profile.id } }))
              }
            >
              Sign out everywhere
            </button>
            <button type="button" className="bo-button" onClick={action.cancel}>
              Cancel
            </button>
          </div>
        </fieldset>
      )}
      {result && (
        <p className="bo-success" role="status">
          Signed out: {result.sessionsEnded === 1 ? "1 session" : `${result.sessionsEnded} sessions`} ended.
        </p>
      )}
      {action.error && (
        <p className="bo-error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  )
}

const AdjustControl = ({ page, onChanged }: { readonly page: Page; readonly onChanged: () => void }) => {
  const [amount, setAmount] = useState("")
  const [reason, setReason] = useState("")
  // One key per distinct request: a retry of the same one posts nothing twice (the server's rule).
  const [key, setKey] = useState<{ readonly content: string; readonly key: string } | null>(null)
  // Once made, the next adjustment starts from an empty form (and a new key).
  const action = useAction(
    useCallback(() => {
      setAmount("")
      setReason("")
      setKey(null)
      onChanged()
    }, [onChanged]),
  )
  const currencies = page.wallets.map((w) => w.currency)
  const [currency, setCurrency] = useState(
    page.wallets.find((w) => w.isDefault)?.currency ?? currencies[0] ?? page.profile.currency,
  )
  const [sign, setSign] = useState<"+" | "-">("+")
  const [invalid, setInvalid] = useState<string | null>(null)
  const ids = { currency: useId(), amount: useId(), reason: useId(), hint: useId() }
  const decimals = decimalsOfCurrency(currency)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const minor = toMinor(amount, decimals)
    if (minor === null) {
      setInvalid(
        decimals === 0
          ? `Enter a whole number of ${currency} greater than 0.`
          : `Enter an amount in ${currency} greater than 0, with at most ${decimals} decimals.`,
      )
      return
    }
    setInvalid(null)
    const signed = signedMinor(sign, minor)
    const content = `${currency}|${signed}|${reason.trim()}`
    const idempotencyKey = key?.content === content ? key.key : `bo-adjust-${crypto.randomUUID()}`
    setKey({ content, key: idempotencyKey })
    action.submit(
      () =>
        playersClient.adjustBalance({
          params: { id: page.profile.id },
          payload: { currency, amount: signed, reason: reason.trim(), idempotencyKey },
        }),
      reason,
    )
  }
  const result = action.state === "done" ? (action.result as Adjustment) : null
  return (
    <div className="bo-action">
      {!formOpen(action) && (
        <button type="button" className="bo-button" onClick={action.open} disabled={currencies.length === 0}>
          Adjust balance
        </button>
      )}
      {formOpen(action) && (
        <form className="bo-adjust" aria-label="Balance adjustment" onSubmit={submit} noValidate>
          <fieldset className="bo-sign">
            <legend>Direction</legend>
            <label>
              <input type="radio" name="sign" checked={sign === "+"} onChange={() => setSign("+")} /> Credit
              (+)
            </label>
            <label>
              <input type="radio" name="sign" checked={sign === "-"} onChange={() => setSign("-")} /> Debit
              (−)
            </label>
          </fieldset>
          <div className="bo-form-row">
            <label htmlFor={ids.currency}>
              Currency
              <select id={ids.currency} value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
                {currencies.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
            <label htmlFor={ids.amount}>
              Amount
              <input
                id={ids.amount}
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                aria-describedby={ids.hint}
                aria-invalid={invalid !== null}
                onChange={(e) => setAmount(e.currentTarget.value)}
              />
            </label>
            <label htmlFor={ids.reason} className="bo-grow">
              Reason
              <input
                id={ids.reason}
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.currentTarget.value)}
              />
            </label>
          </div>
          <p id={ids.hint} className="bo-muted">
            In {currency}, e.g. 12.50. Cash balance only; large amounts wait for a second operator.
          </p>
          {invalid && (
            <p className="bo-error" role="alert">
              {invalid}
            </p>
          )}
          <div className="bo-row">
            <button
              type="submit"
              className="bo-button bo-button--primary"
              disabled={action.state === "submitting"}
            >
              {sign === "+" ? "Credit" : "Debit"}
            </button>
            <button type="button" className="bo-button" onClick={action.cancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {result && (
        <p className="bo-success" role="status">
          {result.status === "posted"
            ? `Posted: ${signedMoney(result.amount, result.currency)} to the cash balance.`
            : `Requested ${signedMoney(result.amount, result.currency)}: waiting for a second approval.`}
        </p>
      )}
      {action.error && (
        <p className="bo-error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  )
}

const NoteForm = ({ id, onChanged }: { readonly id: string; readonly onChanged: () => void }) => {
  const [body, setBody] = useState("")
  // Emptied once saved, not on submit: a refused note keeps its text.
  const action = useAction(
    useCallback(() => {
      setBody("")
      onChanged()
    }, [onChanged]),
  )
  const fieldId = useId()
  return (
    <form
      className="bo-note-form"
      onSubmit={(event) => {
        event.preventDefault()
        action.submit(() => playersClient.addNote({ params: { id }, payload: { body: body.trim() } }), body)
      }}
    >
      <label htmlFor={fieldId}>New note</label>
      <textarea
        id={fieldId}
        rows={3}
        maxLength={2000}
        required
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
      />
      <div className="bo-row">
        <button
          type="submit"
          className="bo-button bo-button--primary"
          disabled={action.state === "submitting"}
        >
          Add note
        </button>
        {action.state === "done" && (
          <span className="bo-success bo-inline" role="status">
            Note added.
          </span>
        )}
      </div>
      {action.error && (
        <p className="bo-error" role="alert">
          {action.error}
        </p>
      )}
    </form>
  )
}

// ── Sections ───────────────────────────────────────────────────────────────────────────────

const Overview = ({ page }: { readonly page: Page }) => {
  const p = page.profile
  return (
    <>
      <section aria-labelledby="player-profile">
        <h3 id="player-profile">Profile</h3>
        <Facts
          facts={[
            [
              "Player id",
              <span key="id" className="bo-mono">
                {p.id}
              </span>,
            ],
            ["E-mail", `${p.email}${p.confirmed ? " (confirmed)" : " (not confirmed)"}`],
            ["Name", dash(p.fullName)],
            ["Nickname", dash(p.nickName)],
            ["Phone", dash(p.phone)],
            ["Date of birth", dash(p.dateOfBirth)],
            ["Gender", dash(p.gender)],
            ["Country", dash(p.country)],
            ["City", dash(p.city)],
            ["Address", [p.address, p.zipCode].filter((v) => v).join(", ") || "—"],
            ["Language", p.language],
            ["Currency", p.currency],
            ["Registered", when(p.registeredAt)],
            [
              "Lock",
              p.locked === null
                ? "Not locked"
                : `Since ${when(p.locked.at)}${p.locked.reason ? `: ${p.locked.reason}` : ""}`,
            ],
          ]}
        />
      </section>
      <section aria-labelledby="player-wallets">
        <h3 id="player-wallets">Wallets and balances</h3>
        {page.wallets.length === 0 ? (
          <Empty>No wallet yet.</Empty>
        ) : (
          <Table
            caption="Wallets"
            head={[
              "Currency",
              { label: "Cash", num: true },
              { label: "Bonus", num: true },
              { label: "Free-spin winnings", num: true },
            ]}
          >
            {page.wallets.map((w) => (
              <tr key={w.currency}>
                <th scope="row">
                  {w.currency} {w.isDefault && <span className="bo-badge">default</span>}
                </th>
                <td className="bo-num">{money(w.cash, w.currency)}</td>
                <td className="bo-num">{money(w.bonus, w.currency)}</td>
                <td className="bo-num">{money(w.freeSpins, w.currency)}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </>
  )
}

const Ledger = ({ page }: { readonly page: Page }) =>
  page.ledger.length === 0 ? (
    <Empty>No ledger entry yet.</Empty>
  ) : (
    <Table
      caption="Ledger entries"
      head={["When", "Kind", "Account", { label: "Amount", num: true }, "Transaction"]}
    >
      {page.ledger.map((l) => (
        <tr key={l.id}>
          <td>{when(l.at)}</td>
          <td>
            <code>{l.kind}</code>
          </td>
          <td>{l.account.replace(/^player_/, "").replace("_", " ")}</td>
          <td className="bo-num">{signedMoney(l.amount, l.currency)}</td>
          <td className="bo-mono">{l.transactionId}</td>
        </tr>
      ))}
    </Table>
  )

const Deposits = ({ page }: { readonly page: Page }) =>
  page.deposits.length === 0 ? (
    <Empty>No deposit yet.</Empty>
  ) : (
    <Table caption="Deposits" head={["When", "Method", { label: "Amount", num: true }, "Status", "Reason"]}>
      {page.deposits.map((d) => (
        <tr key={d.id}>
          <td>{when(d.createdAt)}</td>
          <td>
            {d.method}
            <div className="bo-muted">{d.provider}</div>
          </td>
          <td className="bo-num">{money(d.amount, d.currency)}</td>
          <td>
            <span className="bo-badge">{d.status}</span>
          </td>
          <td>{dash(d.reason)}</td>
        </tr>
      ))}
    </Table>
  )

const Withdrawals = ({ page }: { readonly page: Page }) =>
  page.withdrawals.length === 0 ? (
    <Empty>No withdrawal yet.</Empty>
  ) : (
    <Table
      caption="Withdrawals"
      head={["When", "Method", { label: "Amount", num: true }, "Destination", "Status", "Reason"]}
    >
      {page.withdrawals.map((w) => (
        <tr key={w.id}>
          <td>{when(w.createdAt)}</td>
          <td>{w.method}</td>
          <td className="bo-num">{money(w.amount, w.currency)}</td>
          <td className="bo-mono">{w.destination}</td>
          <td>
            <span className="bo-badge">{w.status}</span>
            {w.txHash && <div className="bo-mono bo-muted">{w.txHash}</div>}
          </td>
          <td>{dash(w.reason)}</td>
        </tr>
      ))}
    </Table>
  )

const Bets = ({ page }: { readonly page: Page }) => (
  <>
    <p className="bo-muted">
      The fairness proof of a round is shown to its player only (the Fairness page of their account): give the
      player the round id to check it.
    </p>
    {page.bets.length === 0 ? (
      <Empty>No real-money round yet.</Empty>
    ) : (
      <Table
        caption="Bets"
        head={[
          "When",
          "Game",
          "Round id",
          { label: "Stake", num: true },
          { label: "Win", num: true },
          "Status",
        ]}
      >
        {page.bets.map((b) => (
          <tr key={b.roundId}>
            <td>{when(b.at)}</td>
            <td>
              {b.gameName}
              <div className="bo-muted">
                {b.provider} · round {b.roundNumber}
              </div>
            </td>
            <td className="bo-mono">{b.roundId}</td>
            <td className="bo-num">{money(b.bet, b.currency)}</td>
            <td className="bo-num">{money(b.win, b.currency)}</td>
            <td>
              <span className="bo-badge">{b.status}</span>
            </td>
          </tr>
        ))}
      </Table>
    )}
  </>
)

const Sessions = ({ page }: { readonly page: Page }) =>
  page.sessions.length === 0 ? (
    <Empty>No session yet.</Empty>
  ) : (
    <Table caption="Sessions" head={["Started", "Last seen", "IP", "Country", "Device", "State"]}>
      {page.sessions.map((s) => (
        <tr key={s.id}>
          <td>{when(s.createdAt)}</td>
          <td>{when(s.lastSeenAt)}</td>
          <td className="bo-mono">{dash(s.ip)}</td>
          <td>{dash(s.country)}</td>
          <td className="bo-wrap bo-device">{dash(s.userAgent)}</td>
          <td>
            {s.active ? (
              <span className="bo-badge bo-badge--ok">Active</span>
            ) : (
              <span className="bo-badge">Ended</span>
            )}
          </td>
        </tr>
      ))}
    </Table>
  )

const ResponsibleGaming = ({ page }: { readonly page: Page }) => {
  const rg = page.responsibleGaming.current
  const limit = (name: string, l: (typeof rg.depositLimits)["daily"]) => (
    <tr key={name}>
      <th scope="row">{name}</th>
      <td className="bo-num">{l.amount === null ? "No limit" : money(l.amount, rg.currency)}</td>
      <td className="bo-num">{money(l.used, rg.currency)}</td>
      <td className="bo-num">{l.remaining === null ? "—" : money(l.remaining, rg.currency)}</td>
      <td>
        {l.pending === null
          ? "—"
          : `${l.pending.amount === null ? "No limit" : money(l.pending.amount, rg.currency)} from ${when(l.pending.effectiveAt)}`}
      </td>
    </tr>
  )
  return (
    <>
      <Facts
        facts={[
          [
            "Reality check",
            rg.realityCheckMinutes === null ? "Off" : `Every ${rg.realityCheckMinutes} minutes`,
          ],
          [
            "Self-exclusion",
            rg.selfExclusion === null
              ? "None"
              : `${rg.selfExclusion.period}, ${rg.selfExclusion.until === null ? "permanent" : `until ${when(rg.selfExclusion.until)}`}`,
          ],
          [
            "Deposit allowed now",
            rg.remainingDeposit === null ? "No limit" : money(rg.remainingDeposit, rg.currency),
          ],
        ]}
      />
      <h3>Deposit limits</h3>
      <Table
        caption="Deposit limits"
        head={[
          "Window",
          { label: "Limit", num: true },
          { label: "Used", num: true },
          { label: "Remaining", num: true },
          "Pending change",
        ]}
      >
        {limit("Daily", rg.depositLimits.daily)}
        {limit("Weekly", rg.depositLimits.weekly)}
        {limit("Monthly", rg.depositLimits.monthly)}
      </Table>
      <h3>Self-exclusion history</h3>
      {page.responsibleGaming.selfExclusions.length === 0 ? (
        <Empty>Never self-excluded.</Empty>
      ) : (
        <Table caption="Self-exclusion history" head={["Kind", "Period", "From", "Until"]}>
          {page.responsibleGaming.selfExclusions.map((s) => (
            <tr key={`${s.startsAt}-${s.period}`}>
              <td>{s.kind}</td>
              <td>{s.period}</td>
              <td>{when(s.startsAt)}</td>
              <td>{s.until === null ? "Permanent" : when(s.until)}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  )
}

const Documents = ({ page }: { readonly page: Page }) => (
  <>
    {[
      ["Identity document", page.documents.id] as const,
      ["Proof of address", page.documents.bill] as const,
    ].map(([title, doc]) => (
      <section key={doc.kind} aria-label={title}>
        <h3>
          {title}{" "}
          <span
            className={
              doc.status === "APPROVED"
                ? "bo-badge bo-badge--ok"
                : doc.status === "REJECTED"
                  ? "bo-badge bo-badge--danger"
                  : "bo-badge"
            }
          >
            {doc.status === "NONE" ? "not sent" : doc.status.toLowerCase()}
          </span>
        </h3>
        {doc.history.length === 0 ? (
          <Empty>Nothing uploaded.</Empty>
        ) : (
          <Table caption={`${title} uploads`} head={["Uploaded", "File", "Status", "Reviewed", "Reason"]}>
            {doc.history.map((h) => (
              <tr key={h.id}>
                <td>{when(h.uploadedAt)}</td>
                <td className="bo-wrap">{h.fileName}</td>
                <td>{h.status.toLowerCase()}</td>
                <td>{h.reviewedAt === null ? "—" : when(h.reviewedAt)}</td>
                <td>{dash(h.reason)}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    ))}
  </>
)

const Bonuses = ({ page }: { readonly page: Page }) => {
  const loyalty = page.loyalty
  const spins = page.bonuses.freeSpinWallets ?? []
  return (
    <>
      <h3>Loyalty</h3>
      <Facts
        facts={[
          ["Level", `${loyalty.level} · ${loyalty.name}`],
          ["Points", loyalty.points],
          [
            "Next level",
            loyalty.nextLevel === null
              ? "Top level"
              : `${loyalty.nextLevel.name} in ${loyalty.pointsToNext ?? "0"} points (${loyalty.progressPercent}%)`,
          ],
          ["Cashback", `${loyalty.cashbackBps / 100}%`],
        ]}
      />
      <h3>Bonuses</h3>
      {page.bonuses.bonuses.length === 0 ? (
        <Empty>No bonus taken.</Empty>
      ) : (
        <Table
          caption="Bonuses"
          head={[
            "Bonus",
            "Status",
            { label: "Granted", num: true },
            { label: "Wagered / required", num: true },
            { label: "Balance", num: true },
            "Expires",
          ]}
        >
          {page.bonuses.bonuses.map((b) => (
            <tr key={b.id}>
              <td>{b.name}</td>
              <td>
                <span className="bo-badge">{b.status}</span>
              </td>
              <td className="bo-num">{money(b.amount, b.currency)}</td>
              <td className="bo-num">
                {money(b.wagered, b.currency)} / {money(b.wageringRequired, b.currency)}
              </td>
              <td className="bo-num">{money(b.balance, b.currency)}</td>
              <td>{when(b.expiresAt)}</td>
            </tr>
          ))}
        </Table>
      )}
      <h3>Free spins</h3>
      {spins.length === 0 ? (
        <Empty>No free spins granted.</Empty>
      ) : (
        <Table
          caption="Free spins"
          head={["Offer", "Status", { label: "Winnings held", num: true }, "Expires"]}
        >
          {spins.map((s) => (
            <tr key={s.id}>
              <td>{s.name}</td>
              <td>
                <span className="bo-badge">{s.status}</span>
              </td>
              <td className="bo-num">{money(s.balance, s.currency)}</td>
              <td>{when(s.expiresAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  )
}

const Notes = ({ page, onChanged }: { readonly page: Page; readonly onChanged: () => void }) => (
  <>
    <NoteForm id={page.profile.id} onChanged={onChanged} />
    {page.notes.length === 0 ? (
      <Empty>No note yet.</Empty>
    ) : (
      <ul className="bo-notes" aria-label="Notes">
        {page.notes.map((n) => (
          <li key={n.id}>
            <p className="bo-wrap">{n.body}</p>
            <p className="bo-muted">
              {n.operatorEmail} · {when(n.at)}
            </p>
          </li>
        ))}
      </ul>
    )}
  </>
)

const Adjustments = ({
  page,
  mayDecide,
  onChanged,
}: {
  readonly page: Page
  readonly mayDecide: boolean
  readonly onChanged: () => void
}) =>
  page.adjustments.length === 0 ? (
    <Empty>No balance adjustment.</Empty>
  ) : (
    <Table
      caption="Balance adjustments"
      head={["Requested", { label: "Amount", num: true }, "Reason", "Status", "Decided"]}
    >
      {page.adjustments.map((a) => (
        <tr key={a.id}>
          <td>
            {when(a.requestedAt)}
            <div className="bo-muted">{a.requestedBy}</div>
          </td>
          <td className="bo-num">{signedMoney(a.amount, a.currency)}</td>
          <td className="bo-wrap">{a.reason}</td>
          <td>
            <span
              className={
                a.status === "posted"
                  ? "bo-badge bo-badge--ok"
                  : a.status === "rejected"
                    ? "bo-badge bo-badge--danger"
                    : "bo-badge"
              }
            >
              {a.status === "pending" ? "waiting for approval" : a.status}
            </span>
          </td>
          <td>
            {a.decidedAt === null ? (
              mayDecide && a.status === "pending" ? (
                <AdjustmentDecision adjustment={a} onDecided={onChanged} />
              ) : (
                "—"
              )
            ) : (
              <>
                {a.decidedBy} · {when(a.decidedAt)}
                {a.decisionReason && <div className="bo-muted">{a.decisionReason}</div>}
              </>
            )}
          </td>
        </tr>
      ))}
    </Table>
  )

const has = (permissions: ReadonlyArray<Permission>, permission: Permission) =>
  permissions.includes(permission)

export const PlayerPage = ({ id, onBack }: { readonly id: string; readonly onBack: () => void }) => {
  const page = useResource(() => playersClient.getPlayer({ params: { id } }))
  const me = useSession((s) => s.context.me)
  const permissions = me?.permissions ?? []
  const [section, setSection] = useState<Section>("overview")
  const { refresh } = page
  const data = page.data
  const mayLock = has(permissions, "players.lock")
  const mayAdjust = has(permissions, "players.adjust")
  return (
    <article className="bo-player" aria-labelledby="player-title">
      <p>
        <button type="button" className="bo-link" onClick={onBack}>
          ← All players
        </button>
      </p>
      <div className="bo-screen-head">
        <h1 id="player-title">{data ? data.profile.fullName || data.profile.email : "Player"}</h1>
        <div className="bo-row">
          {data && (
            <>
              <LockBadge locked={data.profile.locked !== null} />
              <KycBadge kyc={data.profile.kyc} />
            </>
          )}
          <button type="button" className="bo-button" onClick={refresh} disabled={page.refreshing}>
            {page.refreshing ? "Refreshing…" : "Refresh"}
          </button>
        </div>
      </div>
      <ResourceState {...page} />
      {data && (
        <>
          <p className="bo-muted">
            {data.profile.email} · <span className="bo-mono">{data.profile.id}</span>
          </p>
          <section className="bo-card bo-actions" aria-labelledby="player-actions">
            <h2 id="player-actions">Actions</h2>
            <div className="bo-actions__list">
              {mayLock && <LockControl page={data} onChanged={refresh} />}
              {mayLock && <SignOutControl page={data} onChanged={refresh} />}
              {mayAdjust && <AdjustControl page={data} onChanged={refresh} />}
              {!mayLock && !mayAdjust && (
                <p className="bo-muted">Your role can read this player and leave notes (Notes tab).</p>
              )}
            </div>
          </section>
          <Tabs label="Player" prefix="player" tabs={sections} current={section} onChange={setSection} />
          <TabPanel prefix="player" id={section}>
            <h2>{sections.find((s) => s.id === section)?.label}</h2>
            {section === "overview" && <Overview page={data} />}
            {section === "ledger" && <Ledger page={data} />}
            {section === "deposits" && <Deposits page={data} />}
            {section === "withdrawals" && <Withdrawals page={data} />}
            {section === "bets" && <Bets page={data} />}
            {section === "sessions" && <Sessions page={data} />}
            {section === "rg" && <ResponsibleGaming page={data} />}
            {section === "documents" && <Documents page={data} />}
            {section === "bonuses" && <Bonuses page={data} />}
            {section === "notes" && <Notes page={data} onChanged={refresh} />}
            {section === "adjustments" && (
              <Adjustments page={data} mayDecide={mayAdjust} onChanged={refresh} />
            )}
          </TabPanel>
        </>
      )}
    </article>
  )
}
