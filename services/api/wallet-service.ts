/**
 * Money in, in the profile-service of spec section 7: wallets, rates and minimums, the
 * player's deposits, and the deposit calls of every method; plus the casino's own analytics
 * endpoint. Paths are the spec's, verbatim; the deposit minimums call (whose path the spec does not
 * show) is `GET /rate/deposit/{currency}`, beside the spec's `/rate/limit/{currency}`.
 *
 * Not here, on purpose: the gateways' signed webhooks (`POST /api/payments/webhooks/{provider}`,
 * raw body under HMAC, see docs/payments-protocol.md) and the player's push stream
 * (`GET /api/events`, server-sent events of `PlayerEvent`) are plain routes of the server — the
 * browser never calls the first, and reads the second with `EventSource`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CurrencyNotSupported,
  DepositBelowMinimum,
  DepositLimitExceeded,
  GatewayUnavailable,
  PaymentsBlocked,
  ProfileIncomplete,
  RateLimited,
  Unauthenticated,
  WalletExists,
  WalletNotFound,
} from "../errors.ts"
import { Fund } from "../profile-service.ts"
import {
  AnalyticsEvent,
  CurrencyParams,
  CurrencyPayload,
  DepositMinimums,
  DepositResponse,
  FiatHistory,
  GatewayDepositPayload,
  GatewayParams,
  Gateways,
  HistoryParams,
  HistoryQuery,
  JetonCashDepositPayload,
  JetonDepositPayload,
  JetonParams,
  SkrillDepositPayload,
  TotalDeposits,
  WithdrawLimits,
} from "../wallet-service.ts"

export class WalletServiceApi extends HttpApiGroup.make("wallet")
  .add(
    HttpApiEndpoint.post("addCurrency", "/profile/currency", {
      payload: CurrencyPayload,
      success: Fund,
      error: [Unauthenticated, CurrencyNotSupported, WalletExists],
    }),
    HttpApiEndpoint.put("setDefaultCurrency", "/profile/currency", {
      payload: CurrencyPayload,
      success: Fund,
      error: [Unauthenticated, WalletNotFound],
    }),
    HttpApiEndpoint.get("depositMinimums", "/rate/deposit/:currency", {
      params: CurrencyParams,
      success: DepositMinimums,
      error: [CurrencyNotSupported],
    }),
    HttpApiEndpoint.get("withdrawLimits", "/rate/limit/:currency", {
      params: CurrencyParams,
      success: WithdrawLimits,
      error: [CurrencyNotSupported],
    }),
    HttpApiEndpoint.get("totalDeposits", "/profile/payment/total-deposits", {
      success: TotalDeposits,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.get("gateways", "/profile/payment/gateways", {
      success: Gateways,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.get("fiatHistory", "/profile/fiat/:type", {
      params: HistoryParams,
      query: HistoryQuery,
      success: FiatHistory,
      error: [Unauthenticated],
    }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "profile-service: wallets",
      description:
        "The player's wallets, deposit minimums and rates, withdrawal minimums, completed deposits, " +
        "the enabled card gateways in cascade order, and the fiat payment history.",
    }),
  ) {}

const depositErrors = [
  Unauthenticated,
  CurrencyNotSupported,
  WalletNotFound,
  DepositBelowMinimum,
  DepositLimitExceeded,
  ProfileIncomplete,
  GatewayUnavailable,
  PaymentsBlocked,
  RateLimited,
] as const

export class PaymentsApi extends HttpApiGroup.make("payments")
  .add(
    HttpApiEndpoint.post("gatewayDeposit", "/profile/:gateway/deposit", {
      params: GatewayParams,
      payload: GatewayDepositPayload,
      success: DepositResponse,
      error: depositErrors,
    }),
    HttpApiEndpoint.post("skrillDeposit", "/profile/skrill/deposit", {
      payload: SkrillDepositPayload,
      success: DepositResponse,
      error: depositErrors,
    }),
    HttpApiEndpoint.post("jetonDeposit", "/profile/jeton/:type/deposit", {
      params: JetonParams,
      payload: JetonDepositPayload,
      success: DepositResponse,
      error: depositErrors,
    }),
    HttpApiEndpoint.post("jetonCashDeposit", "/profile/jeton/cash/deposit", {
      payload: JetonCashDepositPayload,
      success: DepositResponse,
      error: depositErrors,
    }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "profile-service: deposits",
      description:
        "Starts a deposit with a card gateway or an e-wallet; the answer is the page to open in the " +
        "payment frame (or MiFinity's widget token). The balance changes only on the provider's " +
        "signed webhook, never on the browser's return.",
    }),
  ) {}

export class AnalyticsApi extends HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.post("track", "/analytics/events", {
      payload: AnalyticsEvent,
      success: HttpApiSchema.NoContent,
      error: [RateLimited],
    }),
  )
  .prefix("/api")
  .annotateMerge(
    OpenApi.annotations({
      title: "analytics",
      description:
        "The casino's own first-party event store (spec: an event on each deposit method click). " +
        "No third party; the session's player id when signed in, nothing else about the visitor.",
    }),
  ) {}
