/**
 * Toasts (spec: top-right, 5 s). Machines call these through named actions, so tests can replace them
 * with `machine.provide({ actions: … })`. sonner is not part of the first download: the toaster
 * (`ui/shell/Toasts.tsx`) loads right after the first screen, and a toast raised before it is
 * mounted waits for it instead of being lost.
 */
export type ToastKind = "success" | "error" | "info"

let markMounted: () => void = () => undefined
const toasterReady = new Promise<void>((resolve) => {
  markMounted = resolve
})

/** Called by the toaster once it listens; toasts raised earlier are shown then. */
export const toasterMounted = (): void => markMounted()

export const notify = (kind: ToastKind, message: string): void => {
  void Promise.all([import("sonner"), toasterReady]).then(([{ toast }]) => {
    if (kind === "success") toast.success(message)
    else if (kind === "error") toast.error(message)
    else toast.info(message)
  })
}
