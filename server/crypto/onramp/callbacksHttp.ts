/**
 * `POST /api/crypto/onramp/:widget/callback`: the widgets' order-status callbacks (docs/onramp.md).
 * A plain route, not a contract endpoint: the signature covers the exact bytes of the body. The
 * family's adapter checks the signature and its timestamp (WEBHOOK_TOLERANCE_SECONDS); a genuine
 * event is recorded once under UNIQUE (widget, event id), a replay is answered without effect.
 * Callbacks only inform: the crypto itself is credited by the chain watcher when it arrives.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { onrampAdapters } from "../../../protocols/onramp/index.ts"
import { onrampWidget } from "../../../services/onramp-rules.ts"
import { AppConfig } from "../../config.ts"
import { CallbacksRepo } from "./CallbacksRepo.ts"
import { widgetCredentials } from "./index.ts"

export const ONRAMP_CALLBACK_PATH = "/api/crypto/onramp/:widget/callback"
export const onrampCallbackPath = (widget: string): string => `/api/crypto/onramp/${widget}/callback`

export const onrampCallbackEndpoints = [{ method: "POST", path: ONRAMP_CALLBACK_PATH }] as const

const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

export const onrampCallbackRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* CallbacksRepo
    const callback = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const widget = onrampWidget((yield* HttpRouter.params).widget ?? "")
      const creds = widget === undefined ? undefined : widgetCredentials(config, widget.id)
      if (widget === undefined || creds === undefined) return json(404, { error: "unknown widget" })
      const body = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(request.headers)) if (typeof v === "string") headers[k] = v
      const checked = onrampAdapters[widget.id].verifyCallback(
        creds,
        { headers, body, path: onrampCallbackPath(widget.id) },
        Math.floor(Date.now() / 1000),
        config.webhookToleranceSeconds,
      )
      if (!checked.ok) {
        yield* Effect.logWarning("onramp callback refused", widget.id, checked.reason)
        return json(checked.reason === "malformed" ? 400 : 401, { error: checked.reason })
      }
      const fresh = yield* repo.record(widget.id, checked.event).pipe(Effect.orDie)
      return json(200, { received: true, duplicate: !fresh })
    })
    return HttpRouter.add("POST", ONRAMP_CALLBACK_PATH, callback)
  }),
).pipe(Layer.provide(CallbacksRepo.layer))
