/**
 * The responsible-gaming tab: deposit limits (with what is left and any pending raise), the reality
 * check, and self-exclusion with its confirmation (`responsibleGaming` and `selfExclusion` machines).
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { responsibleGamingMachine } from "../../machines/profile/responsibleGaming.machine.ts"
import type { selfExclusionMachine } from "../../machines/profile/selfExclusion.machine.ts"
import {
  type LimitPeriod,
  limitPeriods,
  ProfileMessages,
  realityCheckIntervals,
  SelfExclusionPeriods,
} from "../../services/profile-rules.ts"
import {
  formatEuros,
  limitPeriodLabel,
  ResponsibleGamingMessages,
  realityCheckLabel,
} from "../../services/responsible-gaming.ts"
import { Spinner } from "../components/Spinner.tsx"
import { ConfirmDialog, Field, invalidProps, LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"

type Actor = ActorRefFrom<typeof responsibleGamingMachine>

const LimitInput = ({ actor, period }: { actor: Actor; period: LimitPeriod }) => {
  const value = useSelector(actor, (s) => s.context.inputs[period])
  const error = useSelector(actor, (s) => s.context.errors[period])
  const limit = useSelector(actor, (s) => s.context.settings?.depositLimits[period] ?? null)
  const id = `limit-${period}`
  return (
    <Field
      id={id}
      label={`${limitPeriodLabel(period)} (EUR)`}
      error={error}
      hint={
        limit === null || (limit.amount === null && limit.pending === null) ? null : (
          <p className="field__hint">
            {limit.remaining === null ? "No limit" : `€${formatEuros(limit.remaining)} left now`}
            {limit.pending === null
              ? null
              : ` · from ${formatDateTime(limit.pending.effectiveAt)}: ${
                  limit.pending.amount === null ? "no limit" : `€${formatEuros(limit.pending.amount)}`
                }`}
          </p>
        )
      }
    >
      <input
        id={id}
        name={id}
        type="text"
        inputMode="decimal"
        className="input"
        placeholder="No limit"
        maxLength={13}
        value={value}
        onChange={(e) => actor.send({ type: "CHANGE_LIMIT", period, value: e.currentTarget.value })}
        {...invalidProps(id, error)}
      />
    </Field>
  )
}

const SelfExclusion = ({ actor }: { actor: ActorRefFrom<typeof selfExclusionMachine> }) => {
  const offered = useSelector(actor, (s) => s.context.offered)
  const chosen = useSelector(actor, (s) => s.context.chosen)
  const error = useSelector(actor, (s) => s.context.error)
  const confirming = useSelector(actor, (s) => s.matches("confirming") || s.matches("excluding"))
  const busy = useSelector(actor, (s) => s.matches("excluding"))
  const timeouts = offered.filter((p) => SelfExclusionPeriods[p].kind === "timeout")
  const exclusions = offered.filter((p) => SelfExclusionPeriods[p].kind === "exclusion")
  return (
    <section className="panel" aria-labelledby="exclusion-title">
      <h2 id="exclusion-title">Take a break or self-exclude</h2>
      <p className="muted">
        You are signed out everywhere and cannot sign in until the period ends. It cannot be shortened.
      </p>
      {timeouts.length > 0 ? (
        <fieldset className="exclusion__group">
          <legend>Take a break</legend>
          {timeouts.map((period) => (
            <button
              key={period}
              type="button"
              className="button button--ghost"
              onClick={() => actor.send({ type: "CHOOSE", period })}
            >
              {SelfExclusionPeriods[period].label}
            </button>
          ))}
        </fieldset>
      ) : null}
      <fieldset className="exclusion__group">
        <legend>Self-exclude</legend>
        {exclusions.map((period) => (
          <button
            key={period}
            type="button"
            className="button button--ghost"
            onClick={() => actor.send({ type: "CHOOSE", period })}
          >
            {SelfExclusionPeriods[period].label}
          </button>
        ))}
      </fieldset>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {confirming && chosen !== null ? (
        <ConfirmDialog
          title={`${SelfExclusionPeriods[chosen].kind === "timeout" ? "Take a break" : "Self-exclude"}: ${SelfExclusionPeriods[chosen].label.toLowerCase()}?`}
          confirmLabel="Yes, sign me out"
          busy={busy}
          danger
          onConfirm={() => actor.send({ type: "CONFIRM" })}
          onCancel={() => actor.send({ type: "CANCEL" })}
        >
          <p>{ProfileMessages.exclusionConfirm}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

export const ResponsibleGamingTab = ({ actor }: { actor: Actor }) => {
  const view = useSelector(actor, (s) =>
    s.matches("loading") ? "loading" : s.matches("loadFailed") ? "loadFailed" : "ready",
  )
  const realityCheck = useSelector(actor, (s) => s.context.realityCheckMinutes)
  const formError = useSelector(actor, (s) => s.context.errors.form)
  const saving = useSelector(actor, (s) => s.matches({ ready: "saving" }))
  const remaining = useSelector(actor, (s) => s.context.settings?.remainingDeposit ?? null)
  const exclusion = useSelector(actor, (s) => s.children.selfExclusion) as
    | ActorRefFrom<typeof selfExclusionMachine>
    | undefined

  if (view === "loading") return <Spinner label="Loading your limits" />
  if (view === "loadFailed")
    return (
      <LoadFailed
        message={ResponsibleGamingMessages.loadFailed}
        onRetry={() => actor.send({ type: "RETRY" })}
      />
    )

  return (
    <div className="profile__section">
      <p className="page__lead">
        Set limits that suit you. Lowering a limit applies at once; raising it waits 24 hours.
      </p>
      <form
        className="panel profile-form"
        aria-label="Limits"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          actor.send({ type: "SAVE" })
        }}
      >
        <h2>Deposit limits</h2>
        <p className="muted">
          {remaining === null
            ? "You have no deposit limit."
            : `You may deposit €${formatEuros(remaining)} now.`}
        </p>
        <fieldset className="flows__fieldset profile-form__grid" disabled={saving}>
          {limitPeriods.map((period) => (
            <LimitInput key={period} actor={actor} period={period} />
          ))}
        </fieldset>
        <h2>Reality check</h2>
        <Field id="reality-check" label="Remind me how long I have been playing" error={undefined}>
          <select
            id="reality-check"
            name="reality-check"
            className="input"
            disabled={saving}
            value={realityCheck === null ? "" : String(realityCheck)}
            onChange={(e) => {
              const minutes = realityCheckIntervals.find((m) => String(m) === e.currentTarget.value) ?? null
              actor.send({ type: "SET_REALITY_CHECK", minutes })
            }}
          >
            <option value="">{realityCheckLabel(null)}</option>
            {realityCheckIntervals.map((minutes) => (
              <option key={minutes} value={String(minutes)}>
                {realityCheckLabel(minutes)}
              </option>
            ))}
          </select>
        </Field>
        {formError ? (
          <p className="form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
          {saving ? "Saving…" : "Save limits"}
        </button>
      </form>
      {exclusion ? <SelfExclusion actor={exclusion} /> : null}
    </div>
  )
}
