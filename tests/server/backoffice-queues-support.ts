/**
 * Fixtures of the review queues' tests: players with documents waiting for review (uploaded
 * through the player API), and BTC withdrawals (no hot wallet here: an approved one waits for a
 * manual payout, so nothing moves it in the background) requested through the player API and, for
 * the later steps, moved by the Withdrawals service as the operator command would.
 */
import { Effect } from "effect"
import { Withdrawals } from "../../server/withdrawals/Withdrawals.ts"
import { jpegBytes, newPlayer, type Player, pdfBytes, upload } from "./account-support.ts"
import type { TestServer } from "./harness.ts"
import {
  addWallet,
  BTC_ADDRESS,
  type Cashier,
  cryptoWithdraw,
  fund,
  newCashier,
} from "./withdrawals-support.ts"

export interface Uploaded extends Player {
  /** The ids of its ID and BILL documents, both PENDING. */
  readonly id: string
  readonly bill: string
}

/** A player who uploaded a JPEG identity document and a PDF proof of address. */
export const playerWithDocuments = async (
  server: TestServer,
  tag: string,
  name?: string,
): Promise<Uploaded> => {
  const player = await newPlayer(server, tag, name)
  const id = await upload(player.browser, "id-verification", jpegBytes(), "passport.jpg", "image/jpeg")
  const bill = await upload(player.browser, "bill-verification", pdfBytes(), "bill.pdf", "application/pdf")
  if (id.status !== 200 || bill.status !== 200) throw new Error(`upload: ${id.status} ${bill.status}`)
  const idOf = (reply: typeof id) => (reply.body as { history: Array<{ id: string }> }).history[0]?.id ?? ""
  return { ...player, id: idOf(id), bill: idOf(bill) }
}

/** A verified cashier with BTC, and `count` requested BTC withdrawals of 40 000 satoshi. */
export const btcWithdrawals = async (
  server: TestServer,
  tag: string,
  count: number,
): Promise<{ readonly cashier: Cashier; readonly ids: ReadonlyArray<string> }> => {
  const cashier = await newCashier(server, tag)
  await addWallet(cashier, "BTC")
  await fund(server, cashier.userId, 1_000_000n, "BTC")
  const ids: Array<string> = []
  for (let i = 0; i < count; i++) {
    const reply = await cryptoWithdraw(cashier, "40000", "BTC", BTC_ADDRESS)
    if (reply.status !== 200) throw new Error(`withdraw: ${reply.status} ${JSON.stringify(reply.body)}`)
    ids.push((reply.body as { id: string }).id)
  }
  return { cashier, ids }
}

/** Moves a withdrawal on as the operator command does (approve, then optionally mark-sent). */
export const moveOn = (server: TestServer, id: string, to: "approved" | "sent") =>
  server.run(
    Effect.gen(function* () {
      const withdrawals = yield* Withdrawals
      yield* withdrawals.approve(id, "cli:fixtures")
      if (to === "sent") yield* withdrawals.markSent(id, "cli:fixtures", "ab".repeat(32))
    }).pipe(Effect.orDie),
  )
