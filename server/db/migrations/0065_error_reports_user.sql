-- The player an error report belongs to is the one whose session sent it (NULL for a visitor),
-- never the user id the browser writes into its report.
ALTER TABLE error_reports ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX error_reports_user_id ON error_reports (user_id) WHERE user_id IS NOT NULL;
