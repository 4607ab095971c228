"""The token check every request makes: plain SQL, one indexed lookup; and noting a token's
use, at most once a minute per token (not a write per request)."""

from datetime import timedelta

from papershelf.store.db import db, read_timestamp, write
from papershelf.store.models import utcnow

# How stale a token's last_used_at may get before a request writes it again.
LAST_USED_RESOLUTION = timedelta(seconds=60)


def user_of_live_token(token_hash: str) -> tuple | None:
    """``(user id, name, created_at, citekey_format, token id, last_used_at)`` of the token
    with this hash that is neither revoked nor expired, or None."""
    p = db.param
    return db.execute_sql(
        f'SELECT u.id, u.name, u.created_at, u.citekey_format, t.id, t.last_used_at'
        f' FROM api_token t JOIN "user" u ON u.id = t.user_id WHERE t.token_hash = {p}'
        f' AND t.revoked = {p} AND (t.expires_at IS NULL OR t.expires_at > {p})',
        (token_hash, False, utcnow())).fetchone()


def note_use(token_id: int, last_used_at) -> None:
    """Record that the token was used now, unless that was recorded less than a minute ago."""
    now = utcnow()
    last_used_at = read_timestamp(last_used_at)  # read by raw SQL: text on SQLite
    if last_used_at is not None and now - last_used_at < LAST_USED_RESOLUTION:
        return
    p = db.param
    write(lambda: db.execute_sql(f"UPDATE api_token SET last_used_at = {p} WHERE id = {p}",
                                 (now, token_id)))

