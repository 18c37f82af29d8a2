-- 0057_reality_check_ack: when a session (a sign-in) last answered a reality-check reminder
-- "Continue playing", by the database clock (PUT /profile-service/api/v1/profile/reality-check).
-- Null: never. The browser reads it on load: a reminder that came due after it (and after the
-- sign-in) is shown at once, so a reload or a second tab cannot skip an unanswered one.
ALTER TABLE sessions ADD COLUMN reality_check_ack_at timestamptz;
