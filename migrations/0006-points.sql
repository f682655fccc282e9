-- Points on both sides of a clash or an attack: a roll log row names the character
-- on its second side (the opponent, the attack's target), so "/hero spend reroll"
-- finds that character's latest roll wherever it rolled.

ALTER TABLE roll_log ADD COLUMN opponent_id INTEGER REFERENCES characters (id) ON DELETE SET NULL;

CREATE INDEX roll_log_by_opponent ON roll_log (opponent_id, id) WHERE opponent_id IS NOT NULL;
