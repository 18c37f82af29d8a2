-- Live support chat (docs/chat.md): one conversation per player (or per anonymous visitor, keyed by
-- the SHA-256 of an httpOnly cookie token), its messages, and how far each side has read.

CREATE TABLE chat_conversations (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- NULL while the conversation belongs to a visitor who has not signed in.
  user_id             uuid REFERENCES users (id),
  visitor_token_hash  text,
  status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  assigned_operator_id uuid REFERENCES backoffice_operators (id),
  -- What the widget told us about the player (name, user id) 3 s after load, shown to staff.
  attributes          jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  -- The last message id each side has seen (0: none); unread = messages of the other side above it.
  player_read_id      bigint NOT NULL DEFAULT 0,
  staff_read_id       bigint NOT NULL DEFAULT 0,
  CHECK (user_id IS NOT NULL OR visitor_token_hash IS NOT NULL)
);
-- One open conversation per player and per visitor token: a second device finds the same one.
CREATE UNIQUE INDEX chat_conversations_open_user_key
  ON chat_conversations (user_id) WHERE status = 'open' AND user_id IS NOT NULL;
CREATE UNIQUE INDEX chat_conversations_open_visitor_key
  ON chat_conversations (visitor_token_hash) WHERE status = 'open' AND visitor_token_hash IS NOT NULL;
CREATE INDEX chat_conversations_inbox_idx ON chat_conversations (status, updated_at DESC);

CREATE TABLE chat_messages (
  id               bigserial PRIMARY KEY,
  conversation_id  uuid NOT NULL REFERENCES chat_conversations (id),
  author_kind      text NOT NULL CHECK (author_kind IN ('player', 'visitor', 'operator', 'system')),
  operator_id      uuid REFERENCES backoffice_operators (id),
  body             text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
  created_at       timestamptz NOT NULL DEFAULT now(),
  CHECK ((author_kind = 'operator') = (operator_id IS NOT NULL))
);
CREATE INDEX chat_messages_conversation_idx ON chat_messages (conversation_id, id);
