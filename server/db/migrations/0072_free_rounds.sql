-- Free rounds (docs/bonuses.md, "Free spins"; protocol: docs/game-wallet-protocol.md, "Free rounds").
-- A grant of N rounds of one game at one bet, sent to the game's provider (the integration) once
-- committed: 'pending' until the provider took it, 'active' while rounds are left, 'finished' when
-- all were played; 'cancelling' → 'cancelled' when its bonus ended before (the provider told to
-- stop); 'expired' past expires_at. Each free round's win comes back through the seamless wallet
-- naming the grant, and is paid where the grant's bonus says (its bonus money while it is active).
CREATE TABLE free_round_grants (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  promotion_id  text NOT NULL REFERENCES promotions (id) ON DELETE RESTRICT,
  -- The bonus whose spins these are (its wagering covers their winnings).
  bonus_id      uuid REFERENCES player_bonuses (id),
  game_id       text NOT NULL REFERENCES games (id),
  integration   text NOT NULL,
  launch_id     text NOT NULL,
  currency      text NOT NULL REFERENCES currencies (code),
  rounds        integer NOT NULL CHECK (rounds BETWEEN 1 AND 10000),
  played        integer NOT NULL DEFAULT 0 CHECK (played >= 0 AND played <= rounds),
  -- Minor units of `currency`: the bet of every round, and what the rounds won so far.
  bet           numeric(38, 0) NOT NULL CHECK (bet > 0),
  won           numeric(38, 0) NOT NULL DEFAULT 0 CHECK (won >= 0),
  status        text NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'active', 'finished', 'cancelling', 'cancelled', 'expired')),
  expires_at    timestamptz NOT NULL,
  -- The provider's side: attempts to send the grant (or its cancel), the last failure.
  attempts      integer NOT NULL DEFAULT 0,
  next_attempt  timestamptz NOT NULL DEFAULT now(),
  last_error    text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX free_round_grants_user_idx ON free_round_grants (user_id, created_at DESC);
CREATE INDEX free_round_grants_outbox_idx ON free_round_grants (next_attempt)
  WHERE status IN ('pending', 'cancelling');
CREATE INDEX free_round_grants_bonus_idx ON free_round_grants (bonus_id) WHERE bonus_id IS NOT NULL;

-- A free round's round: no bet, its grant named.
ALTER TABLE game_rounds ADD COLUMN free_round_grant_id uuid REFERENCES free_round_grants (id);

-- The seeded welcome tiers' spins: a slot of the studio at 0.20 EUR a spin.
UPDATE promotions SET free_spin_game = 'aurora-vault', free_spin_bet_eur_cents = 20
 WHERE id IN ('welcome-1', 'welcome-2', 'welcome-3', 'welcome-4', 'welcome-5');
