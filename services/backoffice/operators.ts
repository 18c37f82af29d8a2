/**
 * Schemas of the back office's own accounts: operators, the two-step login, the audit trail.
 * Browser-safe: the back-office app and the server both build on these.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { permissions, roles } from "./permissions.ts"
import { StoredText } from "./text.ts"

export const Role = Schema.Literals(roles)
export const Permission = Schema.Literals(permissions)

const Email = StoredText(254)

export const Operator = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  role: Role,
  /** The second factor is confirmed (a code was accepted once). */
  enrolled: Schema.Boolean,
  disabled: Schema.Boolean,
  /** Signed in with a generated one-time password: must choose a password before anything else. */
  mustChangePassword: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type Operator = typeof Operator.Type

export const LoginPayload = Schema.Struct({
  email: Email,
  password: StoredText(128),
})

/** After the password: the code of an enrolled operator, or the enrolment of a new one. */
export const LoginStep = Schema.Union([
  Schema.Struct({ step: Schema.Literal("totp") }),
  Schema.Struct({
    step: Schema.Literal("enrol"),
    /** `otpauth://totp/…` for an authenticator app's QR code. */
    otpauthUri: Schema.String,
    /** The same secret in base32, for typing it in by hand. */
    secret: Schema.String,
  }),
])
export type LoginStep = typeof LoginStep.Type

export const TotpPayload = Schema.Struct({ code: StoredText(16) })

/** Who is signed in, with what they may do (the browser hides the rest; the server refuses it). */
export const Me = Schema.Struct({
  operator: Operator,
  role: Role,
  permissions: Schema.Array(Permission),
})
export type Me = typeof Me.Type

export const LoggedOut = Schema.Struct({ loggedOut: Schema.Literal(true) })

export const ChangePasswordPayload = Schema.Struct({
  currentPassword: StoredText(128),
  newPassword: StoredText(128),
})

export const ResetOperatorPayload = Schema.Struct({
  /**
   * `password`: a new one-time password (shown once); `totp`: the next sign-in enrols anew;
   * `tokens`: every API token of the operator ends. Each ends the operator's sessions and tokens.
   */
  what: Schema.Literals(["password", "totp", "tokens"]),
})

export const Operators = Schema.Struct({ operators: Schema.Array(Operator) })

export const CreateOperatorPayload = Schema.Struct({
  email: Email,
  name: StoredText(100),
  role: Role,
  /** Absent: a one-time password is generated and returned once. */
  password: Schema.optional(StoredText(128)),
})

export const CreatedOperator = Schema.Struct({
  operator: Operator,
  /** Shown this once; the operator changes it at first sign-in. */
  initialPassword: Schema.optional(Schema.String),
})

/** Answered 201 Created. */
export const OperatorCreated = CreatedOperator.pipe(HttpApiSchema.status(201))

export const OperatorParams = Schema.Struct({ id: StoredText(64) })

export const UpdateOperatorPayload = Schema.Struct({
  role: Schema.optional(Role),
  disabled: Schema.optional(Schema.Boolean),
})

/** An operator API token, never with its secret (shown once, at creation). */
export const ApiToken = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  createdAt: Schema.String,
  expiresAt: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.String),
  lastUsedIp: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String),
})
export type ApiToken = typeof ApiToken.Type

export const ApiTokens = Schema.Struct({ tokens: Schema.Array(ApiToken) })

export const CreateTokenPayload = Schema.Struct({
  /** What it is for, to recognise it later: "cli on ana's laptop". */
  name: StoredText(100),
  /** 1–365; BACKOFFICE_TOKEN_DAYS when absent. */
  days: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 365 }))),
})

/** Answered 201 Created; `token` is the secret, shown this once. */
export const TokenCreated = Schema.Struct({ token: Schema.String, apiToken: ApiToken }).pipe(
  HttpApiSchema.status(201),
)

export const TokenParams = Schema.Struct({ id: StoredText(64) })

export const AuditQuery = Schema.Struct({
  /** 1–200; 50 when absent. */
  limit: Schema.optional(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })),
  ),
  /** The id of an entry: the page continues below it (`next` of the previous page). */
  before: Schema.optional(Schema.String.check(Schema.isPattern(/^[1-9]\d{0,17}$/))),
})

export const AuditEntry = Schema.Struct({
  id: Schema.String,
  at: Schema.String,
  /** As recorded: `backoffice:<e-mail>`, `token:<e-mail> (<token name>)`, `cli:<user>@<host>`… */
  actor: Schema.String,
  /**
   * Who acted, for a person to read: "Name <e-mail>" for an operator in the browser,
   * `token:Name <e-mail> (<token name>)` for a token, else `actor` (the bootstrap, the command on
   * the database, a sign-in attempt).
   */
  who: Schema.String,
  operatorId: Schema.NullOr(Schema.String),
  operatorEmail: Schema.NullOr(Schema.String),
  action: Schema.String,
  /** The id acted on (a player, an operator, a document, a token…), as stored. */
  subject: Schema.NullOr(Schema.String),
  /**
   * The subject for a person to read: the player's e-mail where the entry concerns a player,
   * "Name <e-mail>" where it is an operator; null where there is no name to show (the id is).
   */
  subjectName: Schema.NullOr(Schema.String),
  before: Schema.Unknown,
  after: Schema.Unknown,
  ip: Schema.NullOr(Schema.String),
})
export type AuditEntry = typeof AuditEntry.Type

export const AuditPage = Schema.Struct({
  entries: Schema.Array(AuditEntry),
  /** The `before` of the next page; null on the last one. */
  next: Schema.NullOr(Schema.String),
})
