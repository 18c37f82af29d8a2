/**
 * Form pieces of the profile area: a labelled control whose error is announced (`aria-invalid`,
 * `aria-describedby`, `role="alert"`), the required and missing-info marks, a read-only value, the
 * promo e-mail switch and a confirmation dialog. Presentational only: values, marks and messages come
 * from the machines.
 */
import { AlertDialog, Label, Switch } from "radix-ui"
import type { ReactElement, ReactNode } from "react"

export const errorIdOf = (id: string): string => `${id}-error`

/** A label with its control; the control gets `id`, and the error's id when there is one. */
export const Field = ({
  id,
  label,
  error,
  required,
  missing,
  hint,
  children,
}: {
  id: string
  label: string
  error: string | undefined
  /** Shows the spec's asterisk (the phone). */
  required?: boolean
  /** The missing-info indicator the caller asked for. */
  missing?: boolean
  hint?: ReactNode
  children: ReactElement
}) => (
  <div className={missing ? "field field--missing" : "field"}>
    <Label.Root className="field__label" htmlFor={id}>
      {label}
      {required ? (
        <span className="field__required" aria-hidden="true">
          {" "}
          *
        </span>
      ) : null}
      {missing ? (
        // The comma keeps the accessible name "Address, missing" rather than "Addressmissing".
        <span className="field__missing">
          <span className="visually-hidden">, </span>missing
        </span>
      ) : null}
    </Label.Root>
    {children}
    {hint}
    {error ? (
      <p id={errorIdOf(id)} className="field__error" role="alert">
        {error}
      </p>
    ) : null}
  </div>
)

/** What a control needs to announce its error. */
export const invalidProps = (id: string, error: string | undefined) =>
  error ? ({ "aria-invalid": true, "aria-describedby": errorIdOf(id) } as const) : {}

/** A value the player can no longer change (spec section 4): read-only, still focusable and readable. */
export const ReadOnlyField = ({
  id,
  label,
  value,
  aside,
}: {
  id: string
  label: string
  value: string
  aside?: ReactNode
}) => (
  <div className="field field--read-only">
    <Label.Root className="field__label" htmlFor={id}>
      {label}
    </Label.Root>
    <div className="field__read-only">
      <input id={id} name={id} type="text" className="input" value={value} readOnly />
      {aside}
    </div>
  </div>
)

export const PromoSwitch = ({
  id,
  subscribed,
  busy,
  onToggle,
}: {
  id: string
  subscribed: boolean
  busy: boolean
  onToggle: () => void
}) => (
  <div className="profile__toggle">
    <Switch.Root
      id={id}
      className="flows__switch-root"
      checked={subscribed}
      disabled={busy}
      aria-busy={busy}
      onCheckedChange={onToggle}
    >
      <Switch.Thumb className="flows__switch-thumb" />
    </Switch.Root>
    <Label.Root htmlFor={id}>Send me promotional e-mails (bonuses, free spins, news)</Label.Root>
  </div>
)

/** A confirmation the machine asks for (open while it is in its confirming state). */
export const ConfirmDialog = ({
  title,
  children,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  danger,
}: {
  title: string
  children: ReactNode
  confirmLabel: string
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
  danger?: boolean
}) => (
  <AlertDialog.Root open onOpenChange={(open) => (open || busy ? undefined : onCancel())}>
    <AlertDialog.Portal>
      <AlertDialog.Overlay className="modal__overlay" />
      <AlertDialog.Content className="modal">
        <div className="modal__header">
          <AlertDialog.Title className="modal__title">{title}</AlertDialog.Title>
        </div>
        <div className="modal__body">
          <AlertDialog.Description asChild>
            <div className="profile__dialog-text">{children}</div>
          </AlertDialog.Description>
          <div className="profile__dialog-actions">
            <AlertDialog.Cancel className="button button--ghost" disabled={busy}>
              Cancel
            </AlertDialog.Cancel>
            <button
              type="button"
              className={danger ? "button button--danger" : "button button--primary"}
              disabled={busy}
              aria-busy={busy}
              onClick={onConfirm}
            >
              {busy ? "Please wait…" : confirmLabel}
            </button>
          </div>
        </div>
      </AlertDialog.Content>
    </AlertDialog.Portal>
  </AlertDialog.Root>
)

/** A failed load, with its retry. */
export const LoadFailed = ({ message, onRetry }: { message: string; onRetry: () => void }) => (
  <div className="notice" role="alert">
    {message}{" "}
    <button type="button" className="link-button" onClick={onRetry}>
      Try again
    </button>
  </div>
)
