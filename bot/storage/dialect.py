"""SQLite's SQL → PostgreSQL's: the one place the two dialects differ.

Repositories write one statement for both backends: SQLite's dialect where the two
disagree, standard SQL everywhere else (prefer rewriting a repository's statement to
standard SQL over adding a rule here when that is simple). ``to_postgres`` rewrites
what is left, once per distinct statement (cached):

- placeholders: ``?`` → ``%s`` and ``:name`` → ``%(name)s`` (psycopg's), and every
  other ``%`` doubled, since psycopg reads ``%`` as the start of a placeholder;
- ``strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`` → ``tablebot_now()`` (defined by the
  first PostgreSQL migration: the same UTC text with milliseconds);
- scalar ``MAX(a, b)`` / ``MIN(a, b)`` → ``GREATEST`` / ``LEAST`` (one argument stays
  the aggregate);
- ``json_group_array(x)`` → ``COALESCE(json_agg(x)::text, '[]')`` (SQLite's gives
  ``[]`` over no rows, PostgreSQL's NULL);
- ``IS ?`` → ``IS NOT DISTINCT FROM %s`` (SQLite's ``IS`` compares NULL as a value);
- ``? IS NULL`` → ``CAST(%s AS TEXT) IS NULL``: a parameter alone has no type for
  PostgreSQL to infer (an optional filter's ``(? IS NULL OR col = ?)``);
- ``LIKE ?`` → ``LIKE %s ESCAPE ''``: SQLite's LIKE has no escape character,
  PostgreSQL's defaults to backslash (a name ending in one would be an error);
- ``INSERT OR IGNORE`` → ``INSERT … ON CONFLICT DO NOTHING``;
- in an upsert's ``DO UPDATE SET … [WHERE …]`` a bare column on the right of ``=``
  (``revision = revision + 1``) is qualified with the table's name: PostgreSQL sees
  the row and ``excluded`` there and calls a bare name ambiguous, SQLite the row;
- ``ROW_LOCK`` (a comment SQLite ignores) at the end of a SELECT → ``FOR NO KEY
  UPDATE`` inside a write transaction, nothing elsewhere (NO KEY: the lock an UPDATE
  of non-key columns takes, so it does not wait for, nor deadlock with, the key-share
  lock a foreign key's insert holds on the row, such as a roll logged for the
  character). SQLite's ``BEGIN IMMEDIATE`` already
  makes a write transaction's reads current until it commits; PostgreSQL's READ
  COMMITTED does so only for the rows it locks. A repository marks the read whose
  row it then saves under a version (an encounter), so a second process's command
  waits for the first and reads its result instead of being refused as stale.

A statement that cannot be rewritten by rule (SQLite's JSON table functions) has its
PostgreSQL text in ``OVERRIDES``, keyed by the exact SQLite text; anything else
SQLite-only raises ``NotPortable`` naming what to change, so a new repository
statement fails the PostgreSQL tests loudly instead of misbehaving.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

_NOW = re.compile(r"strftime\(\s*'%Y-%m-%dT%H:%M:%fZ'\s*,\s*'now'\s*\)", re.IGNORECASE)
_IS_PARAM = re.compile(r"\bIS\s+(NOT\s+)?(?=\?)", re.IGNORECASE)
_PARAM_IS_NULL = re.compile(r"\?(\s+IS\s+(?:NOT\s+)?NULL\b)", re.IGNORECASE)
_LIKE_PARAM = re.compile(r"\bLIKE\s+\?", re.IGNORECASE)
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_UPSERT = re.compile(
    r"^\s*INSERT\s+INTO\s+(\w+).*?\bDO\s+UPDATE\s+SET\b", re.IGNORECASE | re.DOTALL
)
_WORD = re.compile(r"'(?:[^']|'')*'|[A-Za-z_]\w*|\S", re.DOTALL)
_KEYWORDS = frozenset(
    "AND OR NOT NULL IS IN LIKE GLOB BETWEEN CASE WHEN THEN ELSE END TRUE FALSE DISTINCT FROM"
    " CAST AS EXISTS SELECT WHERE ESCAPE COLLATE".split()
)
_FUNCTION = re.compile(r"\b(MAX|MIN|json_group_array)\s*\(", re.IGNORECASE)
_UNPORTABLE = re.compile(
    r"\b(?:json_each|json_extract|json_tree|rowid|PRAGMA|julianday|datetime|ifnull|iif"
    r"|group_concat|INSERT\s+OR\s+REPLACE|REPLACE\s+INTO)\b",
    re.IGNORECASE,
)

# Whole statements PostgreSQL needs in other words (SQLite's JSON table functions).
OVERRIDES: dict[str, str] = {
    # bot.storage.twod10.encounters.channels_with_sheets: a seat is [name, owner, sheet id].
    "SELECT DISTINCT e.channel_id FROM twod10_encounters AS e,"
    " json_each(e.state, '$.seats') AS seat"
    " WHERE e.guild_id = ? AND json_extract(seat.value, '$[2]')"
    " IN (SELECT value FROM json_each(?)) ORDER BY e.channel_id": (
        "SELECT DISTINCT e.channel_id FROM twod10_encounters AS e,"
        " json_array_elements(e.state::json -> 'seats') AS seat(value)"
        " WHERE e.guild_id = ? AND (seat.value ->> 2)"
        " IN (SELECT value FROM json_array_elements_text(?::json) AS wanted(value))"
        " ORDER BY e.channel_id"
    ),
}


# Appended to a SELECT whose row the transaction then saves under a version.
ROW_LOCK = " /*FOR UPDATE*/"
_ROW_LOCK = ROW_LOCK.strip()


class NotPortable(ValueError):
    """A statement uses SQLite-only SQL that no rule here rewrites."""


def to_postgres(
    sql: str, params: Sequence[Any] | Mapping[str, Any] = (), *, writing: bool = False
) -> tuple[str, Any]:
    """The statement and parameters to send to PostgreSQL through psycopg (``writing``:
    inside a write transaction, where ``ROW_LOCK`` locks)."""
    text = _translate(sql, isinstance(params, Mapping), writing)
    if isinstance(params, Mapping):
        return text, {key: _value(v) for key, v in params.items()}
    return text, [_value(v) for v in params]


def _value(value: Any) -> Any:
    # SQLite stores a bool as the integer 0 or 1 and the schema's flags are integers:
    # psycopg would send a boolean, which PostgreSQL won't put in a BIGINT column.
    return int(value) if isinstance(value, bool) else value


@lru_cache(maxsize=2048)
def _translate(sql: str, named: bool, writing: bool) -> str:
    text = OVERRIDES.get(sql, sql)
    if text is sql:
        text = _rewrite(sql)
    text = text.replace(_ROW_LOCK, "FOR NO KEY UPDATE" if writing else "").rstrip()
    return _placeholders(text, named)


def _rewrite(sql: str) -> str:
    text = _NOW.sub("tablebot_now()", sql)
    found = _UNPORTABLE.search(_without_literals(text))
    if found:
        raise NotPortable(
            f"{found.group(0)!r} is SQLite-only: write the statement in standard SQL or add"
            f" its PostgreSQL text to bot.storage.dialect.OVERRIDES ({sql[:80]!r})"
        )
    text = _functions(text)
    text = _IS_PARAM.sub(lambda m: "IS DISTINCT FROM " if m.group(1) else "IS NOT DISTINCT FROM ",
                         text)  # fmt: skip
    text = _PARAM_IS_NULL.sub(r"CAST(? AS TEXT)\1", text)
    text = _LIKE_PARAM.sub("LIKE ? ESCAPE ''", text)
    upsert = _UPSERT.match(text)
    if upsert:
        text = text[: upsert.end()] + _qualify(text[upsert.end() :], upsert.group(1))
    if _INSERT_OR_IGNORE.match(text):
        text = _INSERT_OR_IGNORE.sub("INSERT INTO", text, count=1)
        at = re.search(r"\bRETURNING\b", text, re.IGNORECASE)
        cut = at.start() if at else len(text.rstrip().rstrip(";"))
        text = f"{text[:cut].rstrip()} ON CONFLICT DO NOTHING {text[cut:]}".rstrip()
    return text


def _qualify(update: str, table: str) -> str:
    """``a = a + 1, b = excluded.b WHERE a < ?`` → the right-hand sides' and the
    condition's bare columns as ``table.a`` (assignment targets stay bare: PostgreSQL
    refuses a qualified one)."""
    at = re.search(r"\bRETURNING\b", update, re.IGNORECASE)
    tail = update[at.start() :] if at else ""
    body = update[: at.start()] if at else update
    out: list[str] = []
    words = list(_WORD.finditer(body))
    target = True  # the next word is an assignment's column
    depth = 0
    for i, match in enumerate(words):
        word = match.group(0)
        before = body[words[i - 1].end() : match.start()] if i else body[: match.start()]
        out.append(before)
        prev = words[i - 1].group(0) if i else ""
        nxt = words[i + 1].group(0) if i + 1 < len(words) else ""
        depth += word == "("
        depth -= word == ")"
        if word.upper() == "WHERE" and depth == 0:
            target = False
        elif word == "," and depth == 0:
            target = True
        elif (
            (word[0].isalpha() or word[0] == "_")
            and word.upper() not in _KEYWORDS
            and prev not in (".", ":")
            and prev.upper() != "AS"
            and nxt not in (".", "(")
        ):
            if target:
                target = False  # the column being set: bare
            else:
                word = f"{table}.{word}"
        out.append(word)
    out.append(body[words[-1].end() :] if words else body)
    return "".join(out) + tail


def _functions(text: str) -> str:
    """Rewrite scalar MAX/MIN and json_group_array, innermost calls included."""
    out: list[str] = []
    pos = 0
    while True:
        match = _FUNCTION.search(text, pos)
        if match is None:
            out.append(text[pos:])
            return "".join(out)
        open_at = match.end() - 1
        close_at = _closing(text, open_at)
        args = _split_args(text[open_at + 1 : close_at])
        inner = [_functions(arg) for arg in args]
        name = match.group(1).lower()
        out.append(text[pos : match.start()])
        if name == "json_group_array":
            out.append(f"COALESCE(json_agg({', '.join(inner)})::text, '[]')")
        elif len(inner) > 1:
            out.append(f"{'GREATEST' if name == 'max' else 'LEAST'}({', '.join(inner)})")
        else:
            out.append(f"{match.group(1)}({', '.join(inner)})")
        pos = close_at + 1


def _closing(text: str, open_at: int) -> int:
    depth = 0
    quote: str | None = None
    for i in range(open_at, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
    raise NotPortable(f"unbalanced parentheses in {text[:80]!r}")


def _split_args(inside: str) -> list[str]:
    args: list[str] = []
    depth = 0
    quote: str | None = None
    start = 0
    for i, ch in enumerate(inside):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(inside[start:i].strip())
            start = i + 1
    args.append(inside[start:].strip())
    return args


def _without_literals(text: str) -> str:
    return re.sub(r"'(?:[^']|'')*'", "''", text)


def _placeholders(text: str, named: bool) -> str:
    """``?``/``:name`` → psycopg's placeholders, every other ``%`` doubled; string
    literals, quoted names and PostgreSQL's ``::`` casts are left alone."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            end = text.find(ch, i + 1)
            while end != -1 and end + 1 < n and text[end + 1] == ch:  # doubled quote
                end = text.find(ch, end + 2)
            end = n - 1 if end == -1 else end
            out.append(text[i : end + 1].replace("%", "%%"))
            i = end + 1
        elif ch == "%":
            out.append("%%")
            i += 1
        elif ch == "?":
            out.append("%s")
            i += 1
        elif ch == ":" and i + 1 < n and text[i + 1] == ":":
            out.append("::")
            i += 2
        elif ch == ":" and named and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] == "_"):
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(f"%({text[i + 1 : j]})s")
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)
