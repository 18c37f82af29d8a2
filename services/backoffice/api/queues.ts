/**
 * The review queues: KYC documents (`kyc.review`) and withdrawals (`withdrawals.review`), and the
 * counts of both for the dashboard (any signed-in operator).
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { WithdrawalNotFound } from "../../errors.ts"
import { Audits, needs, Requires, signedIn } from "../access.ts"
import { BadInput, DecisionRefused, DocumentNotFound } from "../errors.ts"
import { BackofficeGuard } from "../middleware.ts"
import {
  DocumentFile,
  KycDecision,
  KycDocumentParams,
  KycQueue,
  KycRejectPayload,
  MarkSentPayload,
  QueueCounts,
  QueuedWithdrawal,
  WithdrawalDetail,
  WithdrawalParams,
  WithdrawalQueue,
  WithdrawalQueueQuery,
  WithdrawalRejectPayload,
} from "../queues.ts"

export class KycApi extends HttpApiGroup.make("kyc")
  .add(
    HttpApiEndpoint.get("kycQueue", "/kyc/documents", { success: KycQueue }).annotate(
      Requires,
      needs("kyc.review"),
    ),
    HttpApiEndpoint.get("kycFile", "/kyc/documents/:id/file", {
      params: KycDocumentParams,
      success: DocumentFile,
      error: [DocumentNotFound],
    }).annotate(Requires, needs("kyc.review")),
    HttpApiEndpoint.post("kycApprove", "/kyc/documents/:id/approve", {
      params: KycDocumentParams,
      success: KycDecision,
      error: [DocumentNotFound, DecisionRefused],
    })
      .annotate(Requires, needs("kyc.review"))
      .annotate(Audits, ["kyc.approve"]),
    HttpApiEndpoint.post("kycReject", "/kyc/documents/:id/reject", {
      params: KycDocumentParams,
      payload: KycRejectPayload,
      success: KycDecision,
      error: [BadInput, DocumentNotFound, DecisionRefused],
    })
      .annotate(Requires, needs("kyc.review"))
      .annotate(Audits, ["kyc.reject"]),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}

export class WithdrawalsApi extends HttpApiGroup.make("withdrawals")
  .add(
    HttpApiEndpoint.get("withdrawalQueue", "/withdrawals", {
      query: WithdrawalQueueQuery,
      success: WithdrawalQueue,
    }).annotate(Requires, needs("withdrawals.review")),
    HttpApiEndpoint.get("withdrawal", "/withdrawals/:id", {
      params: WithdrawalParams,
      success: WithdrawalDetail,
      error: [WithdrawalNotFound],
    }).annotate(Requires, needs("withdrawals.review")),
    HttpApiEndpoint.post("withdrawalApprove", "/withdrawals/:id/approve", {
      params: WithdrawalParams,
      success: QueuedWithdrawal,
      error: [BadInput, WithdrawalNotFound, DecisionRefused],
    })
      .annotate(Requires, needs("withdrawals.review"))
      .annotate(Audits, ["withdrawal.approve"]),
    HttpApiEndpoint.post("withdrawalReject", "/withdrawals/:id/reject", {
      params: WithdrawalParams,
      payload: WithdrawalRejectPayload,
      success: QueuedWithdrawal,
      error: [BadInput, WithdrawalNotFound, DecisionRefused],
    })
      .annotate(Requires, needs("withdrawals.review"))
      .annotate(Audits, ["withdrawal.reject"]),
    HttpApiEndpoint.post("withdrawalMarkSent", "/withdrawals/:id/mark-sent", {
      params: WithdrawalParams,
      payload: MarkSentPayload,
      success: QueuedWithdrawal,
      error: [BadInput, WithdrawalNotFound, DecisionRefused],
    })
      .annotate(Requires, needs("withdrawals.review"))
      .annotate(Audits, ["withdrawal.mark-sent"]),
    HttpApiEndpoint.post("withdrawalMarkPaid", "/withdrawals/:id/mark-paid", {
      params: WithdrawalParams,
      success: QueuedWithdrawal,
      error: [BadInput, WithdrawalNotFound, DecisionRefused],
    })
      .annotate(Requires, needs("withdrawals.review"))
      .annotate(Audits, ["withdrawal.mark-paid"]),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}

export class QueuesApi extends HttpApiGroup.make("queues")
  .add(HttpApiEndpoint.get("queueCounts", "/queues", { success: QueueCounts }).annotate(Requires, signedIn))
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
