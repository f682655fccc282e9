-- PostgreSQL twin of ../0017-encounter-stamp-index.sql (see README.md here for how twins are written).

-- The fast path (issue 11): every initiative change and tracker redraw first reads the
-- encounter's stamp, which counts and sums its linked characters' revisions. By
-- (encounter, character) the participants' half of that is read from the index alone,
-- not from each participant's row (about half the statement's time). Only a join,
-- a removal or a link changes these entries; a turn or a new round leaves them be.
CREATE INDEX encounter_participants_linked ON encounter_participants (encounter_id, character_id);
