"""Users and API tokens. A token is shown once; the store keeps only its SHA-256."""

import hashlib
import secrets
from datetime import timedelta

from papershelf.domain.errors import Invalid, NotFound
from papershelf.services import sessions
from papershelf.store import tokens
from papershelf.store.db import write
from papershelf.store.models import ApiToken, User, utcnow

TOKEN_PREFIX = "ps_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_user(name: str) -> User | None:
    return User.get_or_none(User.name == name)


def get_or_create_user(name: str) -> User:
    # Two first commands at once (PostgreSQL): the loser's insert is refused and it finds the
    # winner's user.
    return write(lambda: User.get_or_none(User.name == name) or User.create(name=name),
                 retry_unique=True)


def create_token(user: User, label: str = "") -> str:
    """A new token for ``user``; the caller shows it once."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    write(lambda: ApiToken.create(user=user, token_hash=hash_token(token), label=label))
    return token


def user_for_token(token: str) -> User | None:
    if not token or len(token) > 200:
        return None
    return user_for_token_hash(hash_token(token))


def user_for_token_hash(token_hash: str, user_id: int | None = None) -> User | None:
    """The user of an unrevoked token (and only if it is ``user_id``'s, when given)."""
    row = tokens.user_of_live_token(token_hash)
    if row is None or (user_id is not None and row[0] != user_id):
        return None
    tokens.note_use(row[4], row[5])
    return User(id=row[0], name=row[1], created_at=row[2], citekey_format=row[3])


def store_is_empty() -> bool:
    return not User.select().exists()


def touch_token(token: str) -> None:
    token_hash = hash_token(token)
    write(lambda: ApiToken.update(last_used_at=utcnow())
          .where(ApiToken.token_hash == token_hash).execute())


def list_tokens(user: User) -> list[ApiToken]:
    """The user's tokens, oldest first (their hashes only; a secret is never kept)."""
    return list(ApiToken.select().where(ApiToken.user == user).order_by(ApiToken.id))


class TokenNotFound(NotFound):
    """No token of this user has that id or label, or the label names several."""


def revoke_token(user: User, which: str) -> list[ApiToken]:
    """Revoke the user's token whose id or label is ``which``; answer what was revoked.

    A label that several live tokens share is refused (say the id instead), so one command
    never revokes more than the user meant. A revoked token also signs its library-page
    sessions out (they hold its hash).
    """
    tokens = list_tokens(user)
    chosen = [t for t in tokens if which.isdigit() and t.id == int(which)]
    if not chosen:
        chosen = [t for t in tokens if t.label == which and not t.revoked]
    if not chosen:
        raise TokenNotFound(f"{user.name} has no token with the id or label {which!r}")
    if len(chosen) > 1:
        ids = ", ".join(str(t.id) for t in chosen)
        raise TokenNotFound(f"{len(chosen)} tokens of {user.name} are labelled {which!r} "
                            f"(ids {ids}): revoke one by its id")
    write(lambda: _revoke(chosen[0].id))
    chosen[0].revoked = True
    return chosen


# ---- the tokens API and page: named tokens with an expiry --------------------------------

TOKEN_NAME_MAX = 100
EXPIRY_DAYS_MAX = 3650


def token_state(t: ApiToken, now=None) -> str:
    if t.revoked:
        return "revoked"
    if t.expires_at is not None and t.expires_at <= (now or utcnow()):
        return "expired"
    return "active"


def token_record(t: ApiToken) -> dict:
    """A token as the API and the library page show it: never its secret (nor its hash)."""
    def when(value):
        return None if value is None else value.isoformat(timespec="microseconds") + "Z"

    return {"id": t.id, "name": t.label, "created_at": when(t.created_at),
            "last_used_at": when(t.last_used_at), "expires_at": when(t.expires_at),
            "state": token_state(t)}


def create_named_token(user: User, name: str = "",
                       expires_in_days: int | None = None) -> tuple[ApiToken, str]:
    """A new token: its row and its secret, which the caller shows once."""
    if expires_in_days is not None and not 1 <= expires_in_days <= EXPIRY_DAYS_MAX:
        raise Invalid(fields={"expires_in_days": [f"between 1 and {EXPIRY_DAYS_MAX} days"]})
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    now = utcnow()
    expires = None if expires_in_days is None else now + timedelta(days=expires_in_days)
    row = write(lambda: ApiToken.create(user=user, token_hash=hash_token(secret), label=name,
                                        created_at=now, expires_at=expires))
    return row, secret


def revoke_token_id(user: User, token_id: int) -> ApiToken:
    """Revoke the user's token ``token_id`` (another user's is not found); its sessions end."""
    def revoke():
        row = ApiToken.get_or_none((ApiToken.id == token_id) & (ApiToken.user == user))
        if row is None:
            raise TokenNotFound("no such token")
        _revoke(row.id)
        return row

    row = write(revoke)
    row.revoked = True
    return row


def _revoke(token_id: int) -> None:
    """Inside a write: the token is revoked, and the library-page sessions it signed in end."""
    ApiToken.update(revoked=True).where(ApiToken.id == token_id).execute()
    sessions.end_sessions_of_token(token_id)
