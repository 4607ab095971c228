"""Library-page sessions and the failed-authentication counts: plain SQL on two small tables."""

from papershelf.store.db import db
from papershelf.store.models import AuthFailure, WebSession


def user_of_live_session(secret_hash: str, now) -> tuple | None:
    """``(user id, name, created_at, citekey_format)`` of the unexpired session with this hash
    whose token is neither revoked nor expired, or None."""
    p = db.param
    return db.execute_sql(
        f'SELECT u.id, u.name, u.created_at, u.citekey_format FROM web_session s'
        f' JOIN api_token t ON t.id = s.token_id JOIN "user" u ON u.id = s.user_id'
        f' WHERE s.secret_hash = {p} AND s.expires_at > {p} AND t.revoked = {p}'
        f' AND (t.expires_at IS NULL OR t.expires_at > {p})',
        (secret_hash, now, False, now)).fetchone()


def delete_session(secret_hash: str) -> None:
    WebSession.delete().where(WebSession.secret_hash == secret_hash).execute()


def delete_sessions_of_token(token_id: int) -> int:
    return WebSession.delete().where(WebSession.token == token_id).execute()


def delete_expired_sessions(now) -> None:
    WebSession.delete().where(WebSession.expires_at <= now).execute()


def failures_since(address: str, minute: int) -> int:
    p = db.param
    row = db.execute_sql(
        f"SELECT COALESCE(SUM(count), 0) FROM auth_failure WHERE address = {p} AND minute >= {p}",
        (address, minute)).fetchone()
    return int(row[0])


def add_failure(address: str, minute: int) -> None:
    (AuthFailure.insert(address=address, minute=minute, count=1)
     .on_conflict(conflict_target=[AuthFailure.address, AuthFailure.minute],
                  update={AuthFailure.count: AuthFailure.count + 1})
     .execute())


def forget_failures_before(minute: int) -> None:
    AuthFailure.delete().where(AuthFailure.minute < minute).execute()
