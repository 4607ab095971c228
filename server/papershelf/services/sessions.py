"""Library-page sessions kept in the store, and the brake on guessing tokens.

A session is a row: the cookie carries a random secret, the store its SHA-256, so signing out
(deleting the row) ends it wherever the cookie was copied, and revoking the token it signed in
with ends it too. The brake counts failed authentications per client address in the store, so
every server process on one store applies the same count; it only ever refuses a *wrong* token,
so one noisy neighbour behind the same address cannot lock a valid token out.
"""

import hashlib
import secrets
import time
from datetime import timedelta

from papershelf.store import sessions as queries
from papershelf.store.db import write
from papershelf.store.models import ApiToken, User, WebSession, utcnow

SESSION_DAYS = 30
_BRAKE_MINUTES = 2  # the failures of this minute and the one before count


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def start(user: User, token_hash: str) -> str:
    """A new session for ``user``, signed in with the token of ``token_hash``: its secret."""
    secret = secrets.token_urlsafe(32)
    now = utcnow()

    def create():
        token = ApiToken.get(ApiToken.token_hash == token_hash)
        WebSession.create(user=user, token=token, secret_hash=_hash(secret), created_at=now,
                          expires_at=now + timedelta(days=SESSION_DAYS))
        queries.delete_expired_sessions(now)

    write(create)
    return secret


def user_for_session(secret) -> User | None:
    if not isinstance(secret, str) or not 0 < len(secret) <= 200:
        return None
    row = queries.user_of_live_session(_hash(secret), utcnow())
    if row is None:
        return None
    return User(id=row[0], name=row[1], created_at=row[2], citekey_format=row[3])


def end(secret) -> None:
    """Sign out: the session's row goes, so its cookie, wherever it was copied, is dead."""
    if isinstance(secret, str) and secret:
        write(lambda: queries.delete_session(_hash(secret)))


def end_sessions_of_token(token_id: int) -> int:
    """Inside the revoking transaction: the token's sessions end with it."""
    return queries.delete_sessions_of_token(token_id)


def _minute() -> int:
    return int(time.time() // 60)


def braked(address: str, limit: int) -> bool:
    """Whether ``address`` sent ``limit`` wrong tokens or more this minute and the last."""
    return queries.failures_since(address[:64], _minute() - _BRAKE_MINUTES + 1) >= limit


def record_failure(address: str) -> None:
    """One more wrong token from ``address`` (and, every tenth minute, old counts forgotten)."""
    minute = _minute()

    def count():
        queries.add_failure(address[:64], minute)
        if minute % 10 == 0:
            queries.forget_failures_before(minute - 10)

    write(count)
