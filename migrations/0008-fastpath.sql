-- The fast path (issue 11): what lets reads stay short without ever going stale.

-- A counter that rises with every write to a character's row, kept by the database
-- itself, so a writer that knows nothing of it (a raw UPDATE, a statement added
-- later) still moves it. The initiative tracker trusts a state it saved only while
-- its linked characters' revisions are unchanged. It is separate from `version`,
-- which the code's compare-and-set writes own. Recursive triggers are off, so the
-- trigger's own UPDATE does not fire it again.
ALTER TABLE characters ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER characters_revision_rises AFTER UPDATE ON characters
WHEN NEW.revision = OLD.revision
BEGIN
    UPDATE characters SET revision = OLD.revision + 1 WHERE id = NEW.id;
END;

-- Buttons under an /attack or /damage reply find their roll by the reply's message id
-- (a full scan of the growing log before). Partial: a roll gets its message id only
-- after its reply is sent, so the insert on every command's path skips this index.
CREATE INDEX roll_log_by_message ON roll_log (message_id) WHERE message_id IS NOT NULL;
