/**
 * The casino's HTTP API, defined once. The server implements it (server/http), the browser client
 * is derived from it (services/client.ts), and /openapi.json + /docs are generated from it.
 * Browser-safe: imports no server code.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { BonusServiceApi, CouponServiceApi } from "./api/bonus-service.ts"
import { CashoutServiceApi } from "./api/cashout-service.ts"
import { ChatServiceApi } from "./api/chat-service.ts"
import { CryptoServiceApi } from "./api/crypto-service.ts"
import { ErrorLoggerApi } from "./api/error-logger.ts"
import { GameServiceApi, PlayerGamesApi } from "./api/game-service.ts"
import { IpServiceApi } from "./api/ip-service.ts"
import { ProfileServiceApi } from "./api/profile-service.ts"
import { UserServiceApi } from "./api/user-service.ts"
import { AnalyticsApi, PaymentsApi, WalletServiceApi } from "./api/wallet-service.ts"

export class CasinoApi extends HttpApi.make("casino")
  .add(UserServiceApi)
  .add(IpServiceApi)
  .add(ProfileServiceApi)
  .add(ErrorLoggerApi)
  .add(WalletServiceApi)
  .add(PaymentsApi)
  .add(AnalyticsApi)
  .add(GameServiceApi)
  .add(PlayerGamesApi)
  .add(CryptoServiceApi)
  .add(CashoutServiceApi)
  .add(BonusServiceApi)
  .add(CouponServiceApi)
  .add(ChatServiceApi)
  .annotateMerge(
    OpenApi.annotations({
      title: "Casino API",
      version: "1.0.0",
      description:
        "The calls the player app makes (spec section 7). Amounts are integer minor units as strings.",
    }),
  ) {}
