/**
 * Why a deposit failed, in a player's words. Providers carry the reason as free text in the webhook's
 * `reason` (docs/payments-protocol.md) and the casino stores it on the deposit row as given; this maps
 * the reasons payment providers commonly give (the sandbox's test cards among them) to a sentence a
 * player understands. A reason not known here is still shown, in the provider's own words.
 *
 * Pure and import-free: the deposits tab (profile area) and the deposit dialog (money flows) both use
 * it without pulling either download into the other.
 */

interface ReasonWords {
  readonly pattern: RegExp
  readonly words: string
}

const known: ReadonlyArray<ReasonWords> = [
  {
    pattern: /insufficient[\s_-]*funds|not[\s_-]*sufficient[\s_-]*funds|\bnsf\b/i,
    words: "Your bank declined the payment: insufficient funds.",
  },
  {
    pattern: /do[\s_-]*not[\s_-]*honou?r/i,
    words: "Your bank declined the payment (do not honour). Please contact your bank or use another card.",
  },
  {
    pattern: /expired[\s_-]*card|card[\s_-]*(has[\s_-]*)?expired/i,
    words: "Your card has expired. Please use another card.",
  },
  {
    pattern: /3-?d[\s_-]*secure|3ds|authentication[\s_-]*failed/i,
    words: "The 3-D Secure check of your card failed, so the payment was declined.",
  },
  {
    pattern: /expired[\s_-]*by[\s_-]*the[\s_-]*provider|payment[\s_-]*expired|timed?[\s_-]*out/i,
    words: "The payment was not finished in time and has expired.",
  },
  {
    pattern: /processing[\s_-]*error|gateway[\s_-]*error/i,
    words: "The payment provider could not process the payment. Please try again or use another method.",
  },
  {
    pattern: /card[\s_-]*declined|^declined$/i,
    words: "Your bank declined the payment.",
  },
]

/** The provider's reason in a player's words; a reason not known here in the provider's own words. */
export const declineWords = (reason: string | null): string => {
  const text = reason?.trim() ?? ""
  if (text === "") return "The payment was declined."
  const match = known.find((k) => k.pattern.test(text))
  if (match !== undefined) return match.words
  return `The payment was declined: ${text.endsWith(".") ? text.slice(0, -1) : text}.`
}
