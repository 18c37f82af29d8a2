/**
 * Toasts (spec: top-right, 5 s). Machines call these through named actions, so tests can replace them
 * with `machine.provide({ actions: … })`; the default uses sonner's store, which needs no DOM.
 */
import { toast } from "sonner"

export type ToastKind = "success" | "error" | "info"

export const notify = (kind: ToastKind, message: string): void => {
  if (kind === "success") toast.success(message)
  else if (kind === "error") toast.error(message)
  else toast.info(message)
}
