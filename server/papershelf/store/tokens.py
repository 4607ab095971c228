"""The token check every request makes: plain SQL, one indexed lookup."""

from papershelf.store.db import db


def user_of_live_token(token_hash: str) -> tuple | None:
    """``(user id, name, created_at, citekey_format)`` of the unrevoked token with this hash,
    or None."""
    p = db.param
    return db.execute_sql(
        f'SELECT u.id, u.name, u.created_at, u.citekey_format FROM api_token t'
        f' JOIN "user" u ON u.id = t.user_id WHERE t.token_hash = {p} AND t.revoked = {p}',
        (token_hash, False)).fetchone()
