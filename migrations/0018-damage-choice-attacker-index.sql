-- Deleting a HOCS character runs damage_choices' ON DELETE SET NULL on attacker_id
-- (0004), i.e. "UPDATE damage_choices SET attacker_id = NULL WHERE attacker_id = ?":
-- without an index on attacker_id that statement scans every open choice of every
-- guild. Partial, as roll_log_by_character (0016): a /damage rolled for no attacker
-- writes no entry, and "attacker_id = ?" implies NOT NULL, so the delete still uses it.
-- (target_id's ON DELETE CASCADE already has damage_choices_by_target.)
CREATE INDEX damage_choices_by_attacker ON damage_choices (attacker_id)
    WHERE attacker_id IS NOT NULL;
