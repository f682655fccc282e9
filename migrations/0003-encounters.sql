-- Initiative tracker: one encounter per channel (a thread is a channel), its
-- participants in this round's order, and conditions added with a duration.
-- Every change rewrites the encounter under `version` (a conditional UPDATE), so
-- two writers can never both advance from the same state.

CREATE TABLE encounters (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id            INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    channel_id          INTEGER NOT NULL UNIQUE,
    gm_id               INTEGER NOT NULL,
    social              INTEGER NOT NULL DEFAULT 0 CHECK (social IN (0, 1)),
    skip_down           INTEGER NOT NULL DEFAULT 0 CHECK (skip_down IN (0, 1)),
    show_npc_hp         INTEGER NOT NULL DEFAULT 0 CHECK (show_npc_hp IN (0, 1)),
    round               INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    current_slot        INTEGER CHECK (current_slot IS NULL OR current_slot >= 0),
    turn                INTEGER NOT NULL DEFAULT 0 CHECK (turn >= 0),
    next_participant_id INTEGER NOT NULL DEFAULT 1 CHECK (next_participant_id >= 1),
    next_effect_id      INTEGER NOT NULL DEFAULT 1 CHECK (next_effect_id >= 1),
    tracker_message_id  INTEGER,
    version             INTEGER NOT NULL DEFAULT 1,
    created_at          TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at          TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX encounters_by_guild ON encounters (guild_id);

CREATE TABLE encounter_participants (
    encounter_id    INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    participant_id  INTEGER NOT NULL CHECK (participant_id >= 1),
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    name_key        TEXT    NOT NULL,
    side            TEXT    NOT NULL CHECK (side IN ('pc', 'ally', 'antagonist')),
    group_name      TEXT    CHECK (group_name IS NULL OR length(group_name) BETWEEN 1 AND 64),
    owner_id        INTEGER,
    character_id    INTEGER REFERENCES characters (id) ON DELETE SET NULL,
    slot            INTEGER CHECK (slot IS NULL OR slot >= 0),  -- place in this round's order
    stats           TEXT    NOT NULL CHECK (json_valid(stats)),
    hp              INTEGER,
    max_hp          INTEGER,
    temp_hp         INTEGER NOT NULL DEFAULT 0 CHECK (temp_hp >= 0),
    threshold       INTEGER,
    conditions      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(conditions)),
    roll            TEXT    CHECK (roll IS NULL OR json_valid(roll)),
    preset          INTEGER CHECK (preset IS NULL OR preset >= 0),
    actions_spent   INTEGER NOT NULL DEFAULT 0 CHECK (actions_spent >= 0),
    quick_spent     INTEGER NOT NULL DEFAULT 0 CHECK (quick_spent >= 0),
    reactions_spent INTEGER NOT NULL DEFAULT 0 CHECK (reactions_spent >= 0),
    PRIMARY KEY (encounter_id, participant_id),
    UNIQUE (encounter_id, name_key)
);

CREATE INDEX encounter_participants_by_character ON encounter_participants (character_id);

CREATE TABLE encounter_effects (
    encounter_id   INTEGER NOT NULL,
    effect_id      INTEGER NOT NULL CHECK (effect_id >= 1),
    participant_id INTEGER NOT NULL,
    condition      TEXT    NOT NULL,
    value          INTEGER NOT NULL DEFAULT 1 CHECK (value >= 1),
    added_round    INTEGER NOT NULL CHECK (added_round >= 0),
    expires_round  INTEGER CHECK (expires_round IS NULL OR expires_round >= added_round),
    PRIMARY KEY (encounter_id, effect_id),
    FOREIGN KEY (encounter_id, participant_id)
        REFERENCES encounter_participants (encounter_id, participant_id) ON DELETE CASCADE
);
