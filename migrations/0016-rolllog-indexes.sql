-- Fewer index pages written by every roll (issue 11): each index of roll_log is one more
-- B-tree leaf dirtied (and written to the WAL) by each /attack, /damage and /roll.
--
-- roll_log_by_guild (guild_id, created_at) and roll_log_by_user (guild_id, user_id, id)
-- served no query by user or by time: what reads the log by guild is "has this guild
-- logged anything" (CampaignRepository.has_play_data) and the newest rolls of a guild
-- (RollLogRepository.recent, ORDER BY id). One index on (guild_id, id) serves both.
DROP INDEX roll_log_by_user;
DROP INDEX roll_log_by_guild;
CREATE INDEX roll_log_by_guild ON roll_log (guild_id, id);

-- Found by character only when there is one (a plain /roll has none): partial, as
-- roll_log_by_opponent and roll_log_by_message already are, so a roll made for no
-- character skips it. "character_id = ?" (the reads and the ON DELETE SET NULL of a
-- deleted character) implies NOT NULL, so they still use it.
DROP INDEX roll_log_by_character;
CREATE INDEX roll_log_by_character ON roll_log (character_id, id) WHERE character_id IS NOT NULL;

-- damage_choices_by_expiry served only the sweep of expired choices (once a minute).
-- Choices expire in the order they are made, so the sweep now deletes the ids before the
-- oldest open one, walking the table from its first id (CombatRepository.add_choice).
DROP INDEX damage_choices_by_expiry;

-- Kept: roll_log's AUTOINCREMENT (its rows are never deleted, so plain rowids would
-- never be reused either, but dropping it means rebuilding the whole log, and the copy
-- between backends carries ids through these counters), damage_choices' AUTOINCREMENT
-- (a choice is deleted when its hit is undone or expires, and a button naming it must
-- never find a newer choice under the same id) and damage_choices_by_target (the newest
-- hit on a character, and the ON DELETE CASCADE of a deleted character).
