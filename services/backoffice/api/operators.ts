/** The back office's accounts (admins) and the audit trail. */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { EmailTaken } from "../../errors.ts"
import { Audits, needs, Requires } from "../access.ts"
import { BadInput, LastAdmin, OperatorNotFound } from "../errors.ts"
import { BackofficeGuard } from "../middleware.ts"
import {
  AuditPage,
  AuditQuery,
  CreatedOperator,
  CreateOperatorPayload,
  Operator,
  OperatorCreated,
  OperatorParams,
  Operators,
  ResetOperatorPayload,
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
      .annotate(Audits, ["operators.create"]),
    HttpApiEndpoint.patch("updateOperator", "/operators/:id", {
      params: OperatorParams,
      payload: UpdateOperatorPayload,
      success: Operator,
      error: [BadInput, OperatorNotFound, LastAdmin],
    })
      .annotate(Requires, needs("operators.manage"))
      .annotate(Audits, ["operators.update"]),
    HttpApiEndpoint.post("resetOperator", "/operators/:id/reset", {
      params: OperatorParams,
      payload: ResetOperatorPayload,
      success: CreatedOperator,
      error: [OperatorNotFound],
    })
      .annotate(Requires, needs("operators.manage"))
      .annotate(Audits, ["operators.reset"]),
    HttpApiEndpoint.get("audit", "/audit", { query: AuditQuery, success: AuditPage }).annotate(
      Requires,
      needs("audit.read"),
    ),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
