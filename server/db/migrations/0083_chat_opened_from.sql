-- 0083_chat_opened_from: the address a visitor's conversation was opened from (docs/chat.md,
-- "Limits per address"). The visitor's messages count against it wherever they are sent from, so
-- new cookies or new addresses do not reset the budget. An IPv4 address, or an IPv6 /64 (what one
-- subscriber holds); NULL for a player's conversation and for those opened before this column.
ALTER TABLE chat_conversations ADD COLUMN opened_from text
  CHECK (opened_from IS NULL OR length(opened_from) BETWEEN 2 AND 64);
