-- The web pages' link secrets (issue 28): one per server, 32 random bytes, made when the
-- server's first link is asked for. A link's token is an HMAC with this key, so rotating
-- it (/web revoke) stops every earlier link at once; ``version`` counts the rotations and
-- rides in each token so a revoked link is told apart from a forged one in the code
-- (both get the same 403: nothing tells the visitor which).
CREATE TABLE web_secrets (
    guild_id   INTEGER PRIMARY KEY REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    secret     BLOB    NOT NULL CHECK (length(secret) = 32),
    version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    rotated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
