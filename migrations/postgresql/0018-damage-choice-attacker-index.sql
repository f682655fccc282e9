-- PostgreSQL twin of ../0018-damage-choice-attacker-index.sql (see README.md here for how twins are written).

-- A deleted character's ON DELETE SET NULL on attacker_id finds its choices by index
-- (see the SQLite file for why it is partial).
CREATE INDEX damage_choices_by_attacker ON damage_choices (attacker_id)
    WHERE attacker_id IS NOT NULL;
