/**
 * Money out, in the profile-service of spec section 7: withdrawable, the withdraw calls
 * of the cashout modal, and the player's withdrawals with their timeline. The spec's paths verbatim;
 * the fiat form's withdraw (path not shown by the spec) is `POST /profile/bank/withdraw`, and the
 * withdrawals list is `GET /profile/withdrawals` (docs/withdrawals.md). The minimum is the existing
 * `GET /rate/limit/{currency}` of the wallet group. Every condition of the cashout statechart is
 * checked again here: the browser is never trusted.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  BankWithdrawPayload,
  CryptoWithdrawPayload,
  SkrillWithdrawPayload,
  Withdrawable,
  WithdrawableQuery,
  Withdrawal,
  Withdrawals,
} from "../cashout-service.ts"
import {
  BonusForfeitRequired,
  CurrencyNotSupported,
  InvalidAddress,
  NotEnoughMoney,
  PaymentsBlocked,
  RateLimited,
  Unauthenticated,
  VerificationRequired,
  WalletNotFound,
  WithdrawAmountOutOfRange,
  WithdrawDailyLimitReached,
} from "../errors.ts"

const withdrawErrors = [
  Unauthenticated,
  CurrencyNotSupported,
  WalletNotFound,
  VerificationRequired,
  WithdrawAmountOutOfRange,
  WithdrawDailyLimitReached,
  NotEnoughMoney,
  PaymentsBlocked,
  RateLimited,
  BonusForfeitRequired,
] as const

export class CashoutServiceApi extends HttpApiGroup.make("cashout")
  .add(
    HttpApiEndpoint.get("withdrawable", "/profile/withdrawable", {
      query: WithdrawableQuery,
      success: Withdrawable,
      error: [Unauthenticated, CurrencyNotSupported],
    }),
    HttpApiEndpoint.post("cryptoWithdraw", "/profile/crypto/withdraw", {
      payload: CryptoWithdrawPayload,
      success: Withdrawal,
      error: [...withdrawErrors, InvalidAddress],
    }),
    HttpApiEndpoint.post("skrillWithdraw", "/profile/skrill/withdraw", {
      payload: SkrillWithdrawPayload,
      success: Withdrawal,
      error: withdrawErrors,
    }),
    HttpApiEndpoint.post("bankWithdraw", "/profile/bank/withdraw", {
      payload: BankWithdrawPayload,
      success: Withdrawal,
      error: withdrawErrors,
    }),
    HttpApiEndpoint.get("withdrawals", "/profile/withdrawals", {
      success: Withdrawals,
      error: [Unauthenticated],
    }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "profile-service: cashout",
      description:
        "What the player may withdraw now, the withdraw requests of the cashout modal (crypto, " +
        "Skrill, bank e-mail) and the player's withdrawals with their timeline. A request moves the " +
        "funds to a pending-withdrawal account at once; an operator approves or rejects it.",
    }),
  ) {}
