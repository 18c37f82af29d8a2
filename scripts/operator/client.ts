/**
 * The back-office API's client, derived from its contract (services/backoffice/api.ts), with the
 * operator's token (or, while `login` runs, the session cookie) on every request, and what its
 * failures mean to the command line: a refusal of the contract (exit 1) or a setup error (exit 2).
 */
import { Data, Effect, Schema } from "effect"
import { HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { BackofficeApi } from "../../services/backoffice/api.ts"

export type Client = HttpApiClient.ForApi<typeof BackofficeApi>

/** A refusal: the contract's error (or the command's own, e.g. an unknown player). Exit 1. */
export class Refused extends Data.TaggedError("Refused")<{
  readonly error: string
  readonly message: string
}> {}

/** The command cannot be carried out as asked: no server, no valid token. Exit 2. */
export class SetupError extends Data.TaggedError("SetupError")<{ readonly message: string }> {}

export const NO_TOKEN = "not signed in: run `npm run operator -- login --email E` or set OPERATOR_TOKEN"
export const BAD_TOKEN = "the token is not valid: run `npm run operator -- login` or set OPERATOR_TOKEN"

export interface Credentials {
  readonly token?: string | undefined
  /** The `bo_session` cookie of a login in progress. */
  readonly cookie?: (() => string | undefined) | undefined
}

export const makeClient = (server: string, credentials: Credentials) =>
  HttpApiClient.make(BackofficeApi, {
    baseUrl: server,
    transformClient: HttpClient.mapRequest((request) => {
      if (credentials.token !== undefined) return HttpClientRequest.bearerToken(request, credentials.token)
      const cookie = credentials.cookie?.()
      return cookie === undefined ? request : HttpClientRequest.setHeader(request, "cookie", cookie)
    }),
  })

const isTagged = (e: unknown): e is { readonly _tag: string; readonly message: string } =>
  typeof e === "object" &&
  e !== null &&
  "_tag" in e &&
  "message" in e &&
  typeof e._tag === "string" &&
  typeof e.message === "string"

const EdgeRefusal = Schema.Struct({ error: Schema.String, message: Schema.String })

/**
 * A failure of a call, as the command line reports it. A status the contract does not declare
 * (the edge's 400 BadRequest for a malformed value, 429) is read from its `{ error, message }` body.
 */
export const classify =
  (server: string) =>
  (e: unknown): Effect.Effect<Refused | SetupError> => {
    if (e instanceof Refused || e instanceof SetupError) return Effect.succeed(e)
    if (HttpClientError.isHttpClientError(e)) {
      const response = e.response
      if (response === undefined)
        return Effect.succeed(
          new SetupError({ message: `cannot reach the server at ${server}: ${e.message}` }),
        )
      if (response.status === 401) return Effect.succeed(new SetupError({ message: BAD_TOKEN }))
      return response.json.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(EdgeRefusal)),
        Effect.map((body): Refused | SetupError => new Refused(body)),
        Effect.orElseSucceed(
          () =>
            new SetupError({ message: `the server at ${server} answered ${response.status}: ${e.message}` }),
        ),
      )
    }
    if (Schema.isSchemaError(e)) return Effect.succeed(new Refused({ error: "BadInput", message: e.message }))
    if (isTagged(e)) {
      if (e._tag === "Unauthenticated") return Effect.succeed(new SetupError({ message: BAD_TOKEN }))
      // A conflict names its reason (DuplicateCode, NothingToChange…): more telling than its tag.
      const reason = "reason" in e && typeof e.reason === "string" ? e.reason : e._tag
      return Effect.succeed(new Refused({ error: reason, message: e.message }))
    }
    return Effect.succeed(new SetupError({ message: String(e) }))
  }
