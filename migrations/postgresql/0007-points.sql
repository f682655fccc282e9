-- PostgreSQL twin of ../0007-points.sql (see README.md here for how twins are written).

-- Points on both sides of a clash or an attack: a roll log row names the character
-- on its second side (the opponent, the attack's target), so "/hero spend reroll"
-- finds that character's latest roll wherever it rolled.

ALTER TABLE roll_log ADD COLUMN opponent_id BIGINT  REFERENCES characters (id) ON DELETE SET NULL;

CREATE INDEX roll_log_by_opponent ON roll_log (opponent_id, id) WHERE opponent_id IS NOT NULL;

-- Attacks made in an encounter, per character: the turn of its last attack, how many it
-- made in that turn, whether tempo was earned in it, and the round it last earned aegis.
-- One small row per attacker; the initiative tables stay as they are.
CREATE TABLE attack_turns (
    encounter_id BIGINT  NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    character_id BIGINT  NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    round        BIGINT  NOT NULL CHECK (round >= 0),
    turn         BIGINT  NOT NULL CHECK (turn >= 0),
    attacks      BIGINT  NOT NULL DEFAULT 0 CHECK (attacks >= 0),
    tempo        BIGINT  NOT NULL DEFAULT 0 CHECK (tempo IN (0, 1)),
    aegis_round  BIGINT  CHECK (aegis_round IS NULL OR aegis_round >= 0),
    PRIMARY KEY (encounter_id, character_id)
);
