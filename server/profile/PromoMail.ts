/**
 * Promotional e-mail: who may receive it, the welcome offer, and the way out.
 *
 * - Only players with `receive_email_promo = true` get promotional mail.
 * - The welcome offer goes out once, as soon as both hold: the e-mail is confirmed and promo mail
 *   is accepted (at confirmation, or later when the player switches promo mail on). The claim is
 *   one atomic UPDATE, so it is sent at most once even under concurrent requests; a failed
 *   delivery is logged and not retried (at most once suits a promotion). It is sent within the
 *   request that makes it due (a confirmation or the switch), so that answer waits for the mail once.
 * - Every promotional mail carries a fresh unsubscribe id (32 random bytes, base64url; only its
 *   SHA-256 is stored). Using it — the page's DELETE, or a mail client's one-click POST — switches
 *   promo mail off, without signing in, as often as it is used (idempotent). Links do not expire:
 *   all they can do is stop mail.
 */
import { Context, Effect, Layer } from "effect"
import { UnsubscribeLinkInvalid } from "../../services/errors.ts"
import { ProfileMessages } from "../../services/profile-rules.ts"
import { AppConfig } from "../config.ts"
import { Mailer } from "../mail/Mailer.ts"
import { welcomeOfferMail } from "../mail/templates.ts"
import { hashToken, looksLikeToken, newToken } from "../users/tokens.ts"
import { ProfileRepo } from "./ProfileRepo.ts"

export const UnsubscribeLinkInvalidMessage = "This unsubscribe link is not valid."

/** The API path behind a promo mail's `List-Unsubscribe` header (and the page's DELETE). */
export const unsubscribeApiPath = (id: string) => `/profile-service/api/v1/profile/unsubscribe/${id}`
/** The player app's page a person lands on from the mail body. */
export const unsubscribePagePath = (id: string) => `/unsubscribe/${id}`

export interface PromoMailShape {
  /** Sends the welcome offer when it is due (see above); never fails the caller. */
  readonly welcomeOfferIfDue: (userId: string) => Effect.Effect<void>
  readonly unsubscribe: (
    id: string,
  ) => Effect.Effect<{ readonly message: string; readonly email: string }, UnsubscribeLinkInvalid>
}

const make = Effect.gen(function* () {
  const repo = yield* ProfileRepo
  const mailer = yield* Mailer
  const config = yield* AppConfig
  const mailContext = { productName: config.productName, supportEmail: config.supportEmail }

  const welcomeOfferIfDue = Effect.fn("PromoMail.welcomeOfferIfDue")(function* (userId: string) {
    const send = Effect.gen(function* () {
      const email = yield* repo.claimWelcomeOffer(userId)
      if (email === undefined) return
      const id = newToken()
      yield* repo.insertUnsubscribeLink(userId, hashToken(id))
      yield* mailer.send(
        welcomeOfferMail(mailContext, email, `${config.publicUrl}/`, {
          page: config.publicUrl + unsubscribePagePath(id),
          oneClick: config.publicUrl + unsubscribeApiPath(id),
        }),
      )
    })
    yield* send.pipe(
      Effect.catchCause((cause) => Effect.logError(`welcome offer to user ${userId} failed`, cause)),
    )
  })

  const unsubscribe = Effect.fn("PromoMail.unsubscribe")(function* (id: string) {
    const invalid = new UnsubscribeLinkInvalid({ message: UnsubscribeLinkInvalidMessage })
    if (!looksLikeToken(id)) return yield* invalid
    const email = yield* repo.unsubscribe(hashToken(id)).pipe(Effect.orDie)
    if (email === undefined) return yield* invalid
    return { message: ProfileMessages.unsubscribed, email }
  })

  return { welcomeOfferIfDue, unsubscribe } satisfies PromoMailShape
})

export class PromoMail extends Context.Service<PromoMail, PromoMailShape>()("casino/server/PromoMail") {
  static readonly layer = Layer.effect(PromoMail, make)
}
