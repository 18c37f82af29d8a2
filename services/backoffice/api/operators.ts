/**
 * The back office's accounts (admins) and the audit trail. Creating, changing and resetting an
 * operator need the browser session (`SessionOnly`): a leaked API token must not make an admin
 * with a password of its own choosing, who would outlive the token's revocation.
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { EmailTaken } from "../../errors.ts"
import { Audits, needs, Requires, SessionOnly, signedIn } from "../access.ts"
import { BadInput, LastAdmin, OperatorNotFound, TokenNotFound } from "../errors.ts"
import { BackofficeGuard } from "../middleware.ts"
import {
  ApiToken,
  ApiTokens,
  AuditPage,
  AuditQuery,
  CreatedOperator,
  CreateOperatorPayload,
  CreateTokenPayload,
  Operator,
  OperatorCreated,
  OperatorParams,
  Operators,
  ResetOperatorPayload,
  TokenCreated,
  TokenParams,
  UpdateOperatorPayload,
} from "../operators.ts"

export class OperatorsApi extends HttpApiGroup.make("operators")
  .add(
    HttpApiEndpoint.get("listOperators", "/operators", { success: Operators }).annotate(
      Requires,
      needs("operators.manage"),
    ),
    HttpApiEndpoint.post("createOperator", "/operators", {
      payload: CreateOperatorPayload,
      success: OperatorCreated,
      error: [BadInput, EmailTaken],
    })
      .annotate(Requires, needs("operators.manage"))
      .annotate(SessionOnly, true)
      .annotate(Audits, ["operators.create"]),
    HttpApiEndpoint.patch("updateOperator", "/operators/:id", {
      params: OperatorParams,
      payload: UpdateOperatorPayload,
      success: Operator,
      error: [BadInput, OperatorNotFound, LastAdmin],
    })
      .annotate(Requires, needs("operators.manage"))
      .annotate(SessionOnly, true)
      .annotate(Audits, ["operators.update"]),
    HttpApiEndpoint.post("resetOperator", "/operators/:id/reset", {
      params: OperatorParams,
      payload: ResetOperatorPayload,
      success: CreatedOperator,
      error: [OperatorNotFound],
    })
      .annotate(Requires, needs("operators.manage"))
      .annotate(SessionOnly, true)
      .annotate(Audits, ["operators.reset"]),
    HttpApiEndpoint.get("audit", "/audit", { query: AuditQuery, success: AuditPage }).annotate(
      Requires,
      needs("audit.read"),
    ),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}

/**
 * An operator's own API tokens: `Authorization: Bearer <token>` acts as that operator, with that
 * operator's role, on every endpoint a session could call but the `SessionOnly` ones. This is how
 * `npm run operator` and the team's scripts reach the API. An admin ends someone else's tokens
 * with `resetOperator` (`tokens`), or by disabling the operator.
 */
export class TokensApi extends HttpApiGroup.make("tokens")
  .add(
    HttpApiEndpoint.get("listTokens", "/tokens", { success: ApiTokens }).annotate(Requires, signedIn),
    HttpApiEndpoint.post("createToken", "/tokens", {
      payload: CreateTokenPayload,
      success: TokenCreated,
      error: [BadInput],
    })
      .annotate(Requires, signedIn)
      .annotate(SessionOnly, true)
      .annotate(Audits, ["tokens.create"]),
    HttpApiEndpoint.delete("revokeToken", "/tokens/:id", {
      params: TokenParams,
      success: ApiToken,
      error: [TokenNotFound],
    })
      .annotate(Requires, signedIn)
      .annotate(Audits, ["tokens.revoke"]),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
