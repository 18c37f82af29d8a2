/**
 * The back-office HTTP API, defined once (as services/api.ts is for the player app): the server
 * implements it (server/backoffice/), the back-office app's client is derived from it
 * (services/backoffice/clients/), and /backoffice/openapi.json is generated from it.
 * Browser-safe: imports no server code. Every endpoint carries its `Requires` annotation
 * (./access.ts); the guard refuses one without it.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { ChatApi } from "./api/chat.ts"
import { OperatorsApi, TokensApi } from "./api/operators.ts"
import { PlayersApi } from "./api/players.ts"
import { KycApi, QueuesApi, WithdrawalsApi } from "./api/queues.ts"
import { ReportsApi } from "./api/reports.ts"
import { LoginApi, SessionApi } from "./api/session.ts"
import { SettingsApi } from "./api/settings.ts"

export class BackofficeApi extends HttpApi.make("backoffice")
  .add(LoginApi)
  .add(SessionApi)
  .add(OperatorsApi)
  .add(TokensApi)
  .add(KycApi)
  .add(WithdrawalsApi)
  .add(QueuesApi)
  .add(PlayersApi)
  .add(ReportsApi)
  .add(SettingsApi)
  .add(ChatApi)
  .annotateMerge(
    OpenApi.annotations({
      title: "Casino back-office API",
      version: "1.0.0",
      description:
        "The calls of the back office (/backoffice): operators with roles and TOTP, every endpoint under one permission, every change audited.",
    }),
  ) {}
