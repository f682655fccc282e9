-- PostgreSQL twin of ../0006-platform.sql (see README.md here for how twins are written).

-- Members seen acting as the GM (Manage Server or the campaign's GM role on their own
-- command). Without the privileged members intent the bot cannot list a role's members,
-- so it remembers whom to send a secret roll by direct message. No foreign key: a member
-- can be seen before the guild has a campaign row.

CREATE TABLE gm_members (
    guild_id  BIGINT  NOT NULL,
    user_id   BIGINT  NOT NULL,
    seen_at   TEXT    NOT NULL DEFAULT (tablebot_now()),
    PRIMARY KEY (guild_id, user_id)
);
