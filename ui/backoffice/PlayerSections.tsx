import { Fragment, useState } from "react"
import type { PlayerPage as Page } from "../../services/backoffice/players.ts"
import { money, when } from "./format.ts"
import { NoteForm } from "./PlayerActions.tsx"
import { AdjustmentDecision, dash, Empty, Facts, signedMoney, Table } from "./PlayerParts.tsx"
import { RoundFairnessProof } from "./RoundFairness.tsx"

export const Overview = ({ page }: { readonly page: Page }) => {
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

export const Ledger = ({ page }: { readonly page: Page }) =>
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

export const Deposits = ({ page }: { readonly page: Page }) =>
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

export const Withdrawals = ({ page }: { readonly page: Page }) =>
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

export const Bets = ({ page }: { readonly page: Page }) => {
  // Several proofs may stay open side by side (comparing two rounds' seeds and nonces).
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const toggle = (roundId: string) =>
    setOpen((now) => {
      const next = new Set(now)
      if (!next.delete(roundId)) next.add(roundId)
      return next
    })
  return (
    <>
      <p className="bo-muted">
        A round's Fairness shows its provably-fair proof as the player sees it: the seeds, the nonce and the
        outcome.
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
            "Proof",
          ]}
        >
          {page.bets.map((b, index) => {
            const shown = open.has(b.roundId)
            const proofId = `round-proof-${index}`
            return (
              <Fragment key={b.roundId}>
                <tr>
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
                  <td>
                    <button
                      type="button"
                      className="bo-button"
                      aria-expanded={shown}
                      aria-controls={shown ? proofId : undefined}
                      aria-label={`Fairness of round ${b.roundId}`}
                      onClick={() => toggle(b.roundId)}
                    >
                      Fairness
                    </button>
                  </td>
                </tr>
                {shown && (
                  <tr className="bo-proof-row">
                    <td colSpan={7}>
                      <RoundFairnessProof id={proofId} playerId={page.profile.id} roundId={b.roundId} />
                    </td>
                  </tr>
                )}
              </Fragment>
            )
          })}
        </Table>
      )}
    </>
  )
}

export const Sessions = ({ page }: { readonly page: Page }) =>
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

export const ResponsibleGaming = ({ page }: { readonly page: Page }) => {
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

export const Documents = ({ page }: { readonly page: Page }) => (
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

export const Bonuses = ({ page }: { readonly page: Page }) => {
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

export const Notes = ({ page, onChanged }: { readonly page: Page; readonly onChanged: () => void }) => (
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

export const Adjustments = ({
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
