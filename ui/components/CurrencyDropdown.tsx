/**
 * View of machines/currencyDropdown.machine.ts. It reports DOM facts (clicks, key presses, clicks
 * outside) as events; the machine decides whether the list is open and what is selected.
 * Keyboard: Enter, Space or ↓ on the button opens the list with the focus on the chosen option;
 * ↑ ↓ Home End move, Enter or Space picks, Escape closes the list (only the list, not the dialog
 * around it); both give the focus back to the button. Tabbing out of the list closes it.
 */
import { useActorRef, useSelector } from "@xstate/react"
import { type KeyboardEvent, useEffect, useId, useRef } from "react"
import { currencyDropdownMachine } from "../../machines/currencyDropdown.machine.ts"
import type { Currencies, Currency } from "../../services/cdn.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { CurrencyIcon } from "./CurrencyIcon.tsx"

const ESCAPE_KEY_CODE = 27

export const CurrencyDropdown = ({
  label,
  value,
  currencies,
  onChange,
}: {
  label: string
  value: string
  currencies: Currencies
  onChange: (code: string) => void
}) => {
  const actor = useActorRef(currencyDropdownMachine, { input: { selected: value } })
  const open = useSelector(actor, (s) => s.matches("open"))
  const selected = useSelector(actor, (s) => s.context.selected)
  const rootRef = useRef<HTMLDivElement>(null)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const listId = useId()
  const labelId = useId()
  const valueId = useId()

  useEffect(() => {
    const subscription = actor.on("selected", (event) => onChange(event.code))
    return () => subscription.unsubscribe()
  }, [actor, onChange])

  useEffect(() => {
    if (value !== actor.getSnapshot().context.selected) actor.send({ type: "SYNC", selected: value })
  }, [actor, value])

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current && event.target instanceof Node && !rootRef.current.contains(event.target)) {
        actor.send({ type: "OUTSIDE_CLICK" })
      }
    }
    // Focus moving to something outside (Tab) closes the list, like a click outside does.
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget
      if (rootRef.current && next instanceof Node && !rootRef.current.contains(next)) {
        actor.send({ type: "OUTSIDE_CLICK" })
      }
    }
    const root = rootRef.current
    document.addEventListener("pointerdown", onPointerDown)
    root?.addEventListener("focusout", onFocusOut)
    return () => {
      document.removeEventListener("pointerdown", onPointerDown)
      root?.removeEventListener("focusout", onFocusOut)
    }
  }, [actor, open])

  // Opening puts the focus on the chosen option (or the first), as a listbox popup does.
  useEffect(() => {
    if (!open) return
    const options = listRef.current?.querySelectorAll<HTMLElement>('[role="option"]')
    const chosen = listRef.current?.querySelector<HTMLElement>('[role="option"][aria-selected="true"]')
    ;(chosen ?? options?.[0])?.focus()
  }, [open])

  useEffect(() => {
    if (!open) return
    // Escape closes the list before the dialog around it sees the key: the dialog listens on the
    // document in the capture phase, so this listens one step earlier, on the window.
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return
      event.stopPropagation()
      event.preventDefault()
      triggerRef.current?.focus()
      actor.send({ type: "KEY_DOWN", keyCode: ESCAPE_KEY_CODE })
    }
    window.addEventListener("keydown", onEscape, { capture: true })
    return () => window.removeEventListener("keydown", onEscape, { capture: true })
  }, [actor, open])

  const onKeyDown = (event: KeyboardEvent) => {
    actor.send({ type: "KEY_DOWN", keyCode: event.key === "Escape" ? ESCAPE_KEY_CODE : event.keyCode })
  }

  const onTriggerKeyDown = (event: KeyboardEvent) => {
    if (!open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault()
      actor.send({ type: "TOGGLE" })
      return
    }
    onKeyDown(event)
  }

  /** ↑ ↓ Home End move the focus through the options of both groups. */
  const onListKeyDown = (event: KeyboardEvent) => {
    const options = [...(listRef.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])]
    const active = document.activeElement
    const at = active instanceof HTMLElement ? options.indexOf(active) : -1
    const next =
      event.key === "ArrowDown"
        ? Math.min(at + 1, options.length - 1)
        : event.key === "ArrowUp"
          ? Math.max(at - 1, 0)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? options.length - 1
              : null
    if (next !== null) {
      event.preventDefault()
      options[next]?.focus()
      return
    }
    onKeyDown(event)
  }

  /** Picking gives the focus back to the button (the focused option is about to disappear). */
  const select = (code: string) => {
    triggerRef.current?.focus()
    actor.send({ type: "SELECT", code })
  }

  const current = currencies.find((c) => c.code === selected)
  const groups: ReadonlyArray<{ title: string; items: ReadonlyArray<Currency> }> = [
    { title: "Cryptocurrency", items: currencies.filter((c) => c.type === "CRYPTO") },
    { title: "Fiat", items: currencies.filter((c) => c.type === "FIAT") },
  ]

  return (
    <div className="currency-dropdown" ref={rootRef}>
      <span className="field__label" id={labelId}>
        {label}
      </span>
      <button
        ref={triggerRef}
        type="button"
        className="currency-dropdown__trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        // Only while the list exists: a reference to a missing id is invalid.
        aria-controls={open ? listId : undefined}
        // "Currency USD": the label, then the visible value (the name contains what is shown).
        aria-labelledby={`${labelId} ${valueId}`}
        onClick={() => actor.send({ type: "TOGGLE" })}
        onKeyDown={onTriggerKeyDown}
      >
        {current ? <CurrencyIcon currency={current} /> : null}
        <span id={valueId}>{currencyDisplayName(selected)}</span>
        <span className="currency-dropdown__chevron" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        // One listbox per group (Cryptocurrency, Fiat), each named by its heading.
        <div className="currency-dropdown__list" id={listId} ref={listRef}>
          {groups.map((group) =>
            group.items.length === 0 ? null : (
              <div key={group.title}>
                <div className="currency-dropdown__group" id={`${listId}-${group.title}`}>
                  {group.title}
                </div>
                <div
                  role="listbox"
                  aria-labelledby={`${listId}-${group.title}`}
                  tabIndex={-1}
                  onKeyDown={onListKeyDown}
                >
                  {group.items.map((currency) => (
                    <div
                      key={currency.code}
                      role="option"
                      // One tab stop for the whole list: the arrows move between options.
                      tabIndex={-1}
                      aria-selected={currency.code === selected}
                      className="currency-dropdown__option"
                      onClick={() => select(currency.code)}
                      onKeyDown={(event) => {
                        if (event.key === "Enter" || event.key === " ") {
                          event.preventDefault()
                          select(currency.code)
                        }
                      }}
                    >
                      <CurrencyIcon currency={currency} />
                      <span>{currencyDisplayName(currency.code)}</span>
                      <span className="currency-dropdown__name">{currency.name}</span>
                    </div>
                  ))}
                </div>
              </div>
            ),
          )}
        </div>
      ) : null}
    </div>
  )
}
