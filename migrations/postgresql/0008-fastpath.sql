-- PostgreSQL twin of ../0008-fastpath.sql (see README.md here for how twins are written).

-- A counter that rises with every write to a character's row, kept by the database
-- itself (see the SQLite file). SQLite's AFTER trigger updates the row again; here a
-- BEFORE trigger sets the new row's value in the same write.
ALTER TABLE characters ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION characters_revision_rises() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.revision = OLD.revision THEN
        NEW.revision := OLD.revision + 1;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER characters_revision_rises BEFORE UPDATE ON characters
FOR EACH ROW EXECUTE FUNCTION characters_revision_rises();

-- Buttons under an /attack or /damage reply find their roll by the reply's message id.
CREATE INDEX roll_log_by_message ON roll_log (message_id) WHERE message_id IS NOT NULL;
