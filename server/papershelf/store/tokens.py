"""The token check every request makes: plain SQL, one indexed lookup."""

from papershelf.store.db import db


def user_of_live_token(token_hash: str) -> tuple | None:
    """``(user id, name, created_at)`` of the unrevoked token with this hash, or None."""
    p = db.param
    return db.execute_sql(
        f'SELECT u.id, u.name, u.created_at FROM api_token t JOIN "user" u ON u.id = t.user_id'
        f" WHERE t.token_hash = {p} AND t.revoked = {p}", (token_hash, False)).fetchone()
