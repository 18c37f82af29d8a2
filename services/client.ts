/**
 * The browser's typed client, derived from the contract. Same origin: the session cookie travels
 * with every call and no base URL is needed. One ManagedRuntime serves every machine.
 */
import { Context, Effect, Layer, ManagedRuntime, type Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { CasinoApi } from "./api.ts"

export class ApiClient extends Context.Service<ApiClient, HttpApiClient.ForApi<typeof CasinoApi>>()(
  "casino/services/ApiClient",
) {
  static readonly layer = Layer.effect(ApiClient, HttpApiClient.make(CasinoApi)).pipe(
    Layer.provide(FetchHttpClient.layer),
  )
}

/** Where the CDN files live; the server injects it into index.html, `/cdn` otherwise. */
export const cdnBase = (): string => {
  const fromPage = globalThis.document?.querySelector<HTMLMetaElement>('meta[name="cdn-base"]')?.content
  return (fromPage ?? "/cdn").replace(/\/$/, "")
}

/** Reads one CDN file and decodes it with its contract schema. */
export const fetchCdnFile = <S extends Schema.Top & { readonly DecodingServices: never }>(
  file: string,
  schema: S,
) =>
  Effect.gen(function* () {
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.filterStatusOk)
    const response = yield* client.execute(HttpClientRequest.get(`${cdnBase()}/${file}`))
    return yield* HttpClientResponse.schemaBodyJson(schema)(response)
  })

export type BrowserServices = ApiClient | HttpClient.HttpClient

export const browserLayer: Layer.Layer<BrowserServices> = Layer.mergeAll(
  ApiClient.layer,
  FetchHttpClient.layer,
)

export const browserRuntime = ManagedRuntime.make(browserLayer)
