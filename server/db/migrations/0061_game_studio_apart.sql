-- 0061_game_studio_apart: the game studio keeps its own storage now (its own schema or PGlite and
-- its own migrations, beside its code outside server/). A casino database that held the
-- studio's tables from the time it lived inside the casino drops them: the casino reads none of
-- them, and the studio's sessions there were the studio's alone (the casino's side of every round
-- is in game_rounds and game_transactions). Nothing of the casino references these tables.
DROP TABLE IF EXISTS studio_outbox CASCADE;
DROP TABLE IF EXISTS studio_rounds CASCADE;
DROP TABLE IF EXISTS studio_seeds CASCADE;
DROP TABLE IF EXISTS studio_sessions CASCADE;
DROP TABLE IF EXISTS studio_seen_signatures CASCADE;
DROP TABLE IF EXISTS studio_settings CASCADE;
