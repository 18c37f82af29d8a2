/**
 * Crypto deposits, in the profile-service of spec section 7: the player's deposit
 * address per crypto currency (with the Buy crypto widgets) and the on-chain history. Paths are the
 * spec's, verbatim. Credits are never asked for by the browser: the chain watcher books a transfer
 * once it has its confirmations, and pushes `cryptoDeposit` events on `GET /api/events`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  CryptoDepositAddress,
  CryptoDepositPayload,
  CryptoHistory,
  CryptoHistoryParams,
  CryptoHistoryQuery,
} from "../crypto-service.ts"
import { CurrencyNotSupported, PaymentsBlocked, RateLimited, Unauthenticated } from "../errors.ts"

export class CryptoServiceApi extends HttpApiGroup.make("crypto")
  .add(
    HttpApiEndpoint.post("cryptoDeposit", "/profile/crypto/deposit", {
      payload: CryptoDepositPayload,
      success: CryptoDepositAddress,
      error: [Unauthenticated, CurrencyNotSupported, PaymentsBlocked, RateLimited],
    }),
    HttpApiEndpoint.get("cryptoHistory", "/profile/crypto/:type", {
      params: CryptoHistoryParams,
      query: CryptoHistoryQuery,
      success: CryptoHistory,
      error: [Unauthenticated],
    }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "profile-service: crypto",
      description:
        "The player's own deposit address per crypto currency (derived from the chain's extended " +
        "public key), the purchase widgets, and the on-chain deposits and payouts with their " +
        "confirmations. A transfer is credited by the chain watcher, never by the browser.",
    }),
  ) {}
