/**
 * The toaster (spec: top-right, 5 s), in its own chunk with sonner; `App` loads it lazily right after
 * the first screen. It tells `notify` when it listens, so no early toast is lost.
 */
import { useEffect } from "react"
import { Toaster } from "sonner"
import { toasterMounted } from "../../services/notify.ts"
import { Constants } from "../../services/rules.ts"

export const Toasts = () => {
  useEffect(() => toasterMounted(), [])
  return (
    <Toaster
      position="top-right"
      offset={{ top: 80, right: 16 }}
      // Below the header on phones too: a toast must not cover the account buttons (docs/decisions.md).
      mobileOffset={{ top: 68, right: 12, left: 12 }}
      duration={Constants.toastDurationMs}
      // One stack, each toast whole: sonner otherwise piles later toasts on top of earlier ones.
      expand
      gap={10}
      richColors
      closeButton
      theme="dark"
    />
  )
}
