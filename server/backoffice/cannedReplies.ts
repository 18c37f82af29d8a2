/**
 * The support inbox's canned replies: a fixed list shipped with the server rather than a table, so
 * there is nothing to audit and every operator sees the same wording (changing one is a deploy).
 * The operator picks one into the reply box and may edit it before sending.
 */
export const cannedReplies = [
  {
    id: "greeting",
    title: "Greeting",
    body: "Hello, thank you for contacting support. How can I help you today?",
  },
  {
    id: "looking",
    title: "Looking into it",
    body: "Thank you for your patience. I am looking into this now and will get back to you in a moment.",
  },
  {
    id: "kyc-documents",
    title: "Verification documents",
    body: "To verify your account, please upload a photo of your ID and a recent utility bill under Profile → Verification. We review documents within 24 hours.",
  },
  {
    id: "withdrawal-time",
    title: "Withdrawal times",
    body: "Withdrawals are reviewed within 24 hours. Once approved, card and e-wallet payouts usually arrive within 1–3 business days.",
  },
  {
    id: "closing",
    title: "Closing",
    body: "Is there anything else I can help you with? If not, I will close this conversation. Have a great day!",
  },
] as const
