-- 0006_mines_steps: mines played tile by tile (providers/game-studio/minesRounds.ts). The bet is taken
-- at the start and the round stays `open` while the player opens tiles; `steps` says where it stands:
-- 'playing' (tiles may still be opened, nothing paid) → 'ended' (cashed out, a mine, or swept). NULL:
-- a round played in one request. The options grow with each tile ({ mines, picks in the order
-- opened }), so the finished round verifies like any other.
ALTER TABLE studio_rounds ADD COLUMN steps text CHECK (steps IN ('playing', 'ended'));

-- The rounds still in play: a start looks for the player's, the sweep for those past the lifetime.
CREATE INDEX studio_rounds_playing_idx ON studio_rounds (created_at) WHERE steps = 'playing';
