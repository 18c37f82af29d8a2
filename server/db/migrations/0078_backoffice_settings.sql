-- The back office's settings of the catalogue. The studios' lists (re)write `featured` and `sort`
-- at every sync, so what an operator decides lives in columns of its own that the sync never
-- touches: `enabled` (false: hidden from the lobby and not launchable), and overrides of the
-- featured flag and the lobby order (NULL: the studio's value).
ALTER TABLE games ADD COLUMN enabled boolean NOT NULL DEFAULT true;
ALTER TABLE games ADD COLUMN featured_override boolean;
ALTER TABLE games ADD COLUMN sort_override integer CHECK (sort_override BETWEEN 0 AND 1000000000);
-- Operators' changes (an audit row each) are visible in the updated column.
ALTER TABLE games ADD COLUMN settings_updated_at timestamptz;
