/**
 * Wire errors of the back-office API. The status lives on the class, so the server answers it and
 * the derived client decodes the same class back. Errors the player API already names with the same
 * meaning (Unauthenticated, InvalidCredentials, RateLimited, EmailTaken) are reused from
 * ../errors.ts.
 */
import { Schema } from "effect"

/** The signed-in operator's role lacks the endpoint's permission; nothing was read or changed. */
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { message: Schema.String, permission: Schema.String },
  { httpApiStatus: 403 },
) {}

/** The client address is not in BACKOFFICE_ALLOW. */
export class ForbiddenAddress extends Schema.TaggedError<ForbiddenAddress>()(
  "ForbiddenAddress",
  { message: Schema.String },
  { httpApiStatus: 403 },
) {}

/** The TOTP step without a live password step (expired, or never signed in). */
export class LoginExpired extends Schema.TaggedError<LoginExpired>()(
  "LoginExpired",
  { message: Schema.String },
  { httpApiStatus: 401 },
) {}

/** A TOTP code that is wrong or was already used. */
export class InvalidCode extends Schema.TaggedError<InvalidCode>()(
  "InvalidCode",
  { message: Schema.String },
  { httpApiStatus: 401 },
) {}

/** The operator signed in with a one-time password and must choose their own first. */
export class PasswordChangeRequired extends Schema.TaggedError<PasswordChangeRequired>()(
  "PasswordChangeRequired",
  { message: Schema.String },
  { httpApiStatus: 403 },
) {}

/** Input that passed the schema but not a rule (an e-mail shape, a name length, nothing to change). */
export class BadInput extends Schema.TaggedError<BadInput>()(
  "BadInput",
  { message: Schema.String },
  { httpApiStatus: 400 },
) {}

export class OperatorNotFound extends Schema.TaggedError<OperatorNotFound>()(
  "OperatorNotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

/** The last active admin cannot lose the role or be disabled. */
export class LastAdmin extends Schema.TaggedError<LastAdmin>()(
  "LastAdmin",
  { message: Schema.String },
  { httpApiStatus: 409 },
) {}

/**
 * The first admin's bootstrap (the operator secret's endpoint, server/backoffice/operatorHttp.ts)
 * once an active admin exists: from then on admins add operators, signed in.
 */
export class BootstrapClosed extends Schema.TaggedError<BootstrapClosed>()(
  "BootstrapClosed",
  { message: Schema.String },
  { httpApiStatus: 409 },
) {}

/** No verification document has this id. */
export class DocumentNotFound extends Schema.TaggedError<DocumentNotFound>()(
  "DocumentNotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

/** The item is no longer waiting for this decision (decided already, or its status does not allow it). */
export class DecisionRefused extends Schema.TaggedError<DecisionRefused>()(
  "DecisionRefused",
  { message: Schema.String },
  { httpApiStatus: 409 },
) {}

/** No player with this id. */
export class PlayerNotFound extends Schema.TaggedError<PlayerNotFound>()(
  "PlayerNotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

export class AdjustmentNotFound extends Schema.TaggedError<AdjustmentNotFound>()(
  "AdjustmentNotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

/**
 * A balance adjustment the rules refuse; nothing was posted: the requester deciding their own
 * (`own-request`), one already decided (`decided`), a debit larger than the balance
 * (`insufficient-funds`), an idempotency key used before for another adjustment (`key-reused`), an
 * approver who did not hold their role before the request was made (`approver-too-recent`).
 */
export class AdjustmentRefused extends Schema.TaggedError<AdjustmentRefused>()(
  "AdjustmentRefused",
  {
    message: Schema.String,
    reason: Schema.Literals([
      "own-request",
      "decided",
      "insufficient-funds",
      "key-reused",
      "approver-too-recent",
    ]),
  },
  { httpApiStatus: 409 },
) {}

/** A report window that is not a real date, empty, reversed or longer than 366 days. */
export class ReportRangeRefused extends Schema.TaggedError<ReportRangeRefused>()(
  "ReportRangeRefused",
  { message: Schema.String },
  { httpApiStatus: 400 },
) {}

/** The setting names something that does not exist (a currency, a game, a promotion, a country). */
export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

/** The change is refused by the state it meets: a duplicate, or nothing to change. */
export class Conflict extends Schema.TaggedError<Conflict>()(
  "Conflict",
  { message: Schema.String, reason: Schema.String },
  { httpApiStatus: 409 },
) {}

/** No API token of this operator has this id (or it is someone else's and the caller is no admin). */
export class TokenNotFound extends Schema.TaggedError<TokenNotFound>()(
  "TokenNotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}
