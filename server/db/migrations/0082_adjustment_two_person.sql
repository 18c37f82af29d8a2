-- 0082_adjustment_two_person: the two-person rule on balance adjustments can be neither split nor
-- self-approved (docs/backoffice.md, "Two people above a threshold"). Portable PostgreSQL (15 … 18 / PGlite).

-- What each adjustment was worth in EUR cents (absolute, rounded up) at the rate of its request: an
-- operator's adjustments to one player that posted without a second operator are summed over the
-- last 24 hours, each at the rate it was made at (a rate changed later does not reopen the day).
-- NULL: no rate was known, so it waited for a second operator.
ALTER TABLE balance_adjustments ADD COLUMN eur_cents numeric(38, 0) CHECK (eur_cents IS NULL OR eur_cents >= 0);
UPDATE balance_adjustments b
SET eur_cents = ceil(abs(b.amount) * r.eur_rate * 100 / c.subunits_to_unit)
FROM currency_rates r JOIN currencies c ON c.code = r.currency
WHERE r.currency = b.currency;
-- The day's sum reads one operator's lone adjustments to one player.
CREATE INDEX balance_adjustments_solo_idx ON balance_adjustments (user_id, requested_by, requested_at)
  WHERE NOT needs_approval;

-- Since when an operator has held their current role, enabled: an approver must have held it
-- before the request was made. Kept by the trigger below on every path that writes the table (the
-- API, the bootstrap, a hand-written UPDATE), never by the application: a new operator, a changed
-- role and a re-enabled account all start it again; nothing can set it back.
ALTER TABLE backoffice_operators ADD COLUMN role_since timestamptz;
-- Existing operators: their creation, or the last audited change of their account if later
-- (the audit does not say which field changed: the later time is the safe side).
UPDATE backoffice_operators o
SET role_since = greatest(o.created_at, coalesce((
  SELECT max(a.at) FROM operator_audit a WHERE a.action = 'operators.update' AND a.subject = o.id::text
), o.created_at));
ALTER TABLE backoffice_operators ALTER COLUMN role_since SET NOT NULL;
ALTER TABLE backoffice_operators ALTER COLUMN role_since SET DEFAULT now();

-- clock_timestamp(), not now(): the time of the change itself, not of its transaction's start.
CREATE FUNCTION backoffice_operators_role_since() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.role IS DISTINCT FROM OLD.role OR (OLD.disabled AND NOT NEW.disabled) THEN
    NEW.role_since := clock_timestamp();
  ELSE
    NEW.role_since := OLD.role_since;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER backoffice_operators_role_since BEFORE INSERT OR UPDATE ON backoffice_operators
  FOR EACH ROW EXECUTE FUNCTION backoffice_operators_role_since();
