-- PostgreSQL twin of ../0021-web-secrets.sql (see README.md here for how twins are written).

-- The web pages' link secrets (issue 28): one per server, 32 random bytes; /web revoke
-- rotates it and bumps ``version``, which each token carries.
CREATE TABLE web_secrets (
    guild_id   BIGINT PRIMARY KEY REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    secret     BYTEA  NOT NULL CHECK (length(secret) = 32),
    version    BIGINT NOT NULL DEFAULT 1 CHECK (version >= 1),
    rotated_at TEXT   NOT NULL DEFAULT (tablebot_now())
);
