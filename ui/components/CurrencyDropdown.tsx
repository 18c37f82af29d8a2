/**
 * View of machines/currencyDropdown.machine.ts. It reports DOM facts (clicks, key presses, clicks
 * outside) as events; the machine decides whether the list is open and what is selected.
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
  const listId = useId()
  const labelId = useId()

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
    document.addEventListener("pointerdown", onPointerDown)
    return () => document.removeEventListener("pointerdown", onPointerDown)
  }, [actor, open])

  const onKeyDown = (event: KeyboardEvent) => {
    actor.send({ type: "KEY_DOWN", keyCode: event.key === "Escape" ? ESCAPE_KEY_CODE : event.keyCode })
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
        type="button"
        className="currency-dropdown__trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-labelledby={labelId}
        onClick={() => actor.send({ type: "TOGGLE" })}
        onKeyDown={onKeyDown}
      >
        {current ? <CurrencyIcon currency={current} /> : null}
        <span>{currencyDisplayName(selected)}</span>
        <span className="currency-dropdown__chevron" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        // One listbox per group (Cryptocurrency, Fiat), each named by its heading.
        <div className="currency-dropdown__list" id={listId}>
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
                  onKeyDown={onKeyDown}
                >
                  {group.items.map((currency) => (
                    <div
                      key={currency.code}
                      role="option"
                      tabIndex={0}
                      aria-selected={currency.code === selected}
                      className="currency-dropdown__option"
                      onClick={() => actor.send({ type: "SELECT", code: currency.code })}
                      onKeyDown={(event) => {
                        if (event.key === "Enter" || event.key === " ") {
                          event.preventDefault()
                          actor.send({ type: "SELECT", code: currency.code })
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
