-- PostgreSQL twin of ../0016-rolllog-indexes.sql (see README.md here for how twins are written).

-- Fewer index pages written by every roll (see the SQLite file for why each one goes).
DROP INDEX roll_log_by_user;
DROP INDEX roll_log_by_guild;
CREATE INDEX roll_log_by_guild ON roll_log (guild_id, id);

DROP INDEX roll_log_by_character;
CREATE INDEX roll_log_by_character ON roll_log (character_id, id) WHERE character_id IS NOT NULL;

DROP INDEX damage_choices_by_expiry;
