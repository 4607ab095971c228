"""Users and API tokens. A token is shown once; the store keeps only its SHA-256."""

import hashlib
import secrets

from peewee import IntegrityError

from papershelf.domain.errors import NotFound
from papershelf.services import sessions
from papershelf.store import tokens
from papershelf.store.db import write_transaction
from papershelf.store.models import ApiToken, User, utcnow

TOKEN_PREFIX = "ps_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_user(name: str) -> User | None:
    return User.get_or_none(User.name == name)


def get_or_create_user(name: str) -> User:
    with write_transaction():
        user = User.get_or_none(User.name == name)
        if user is None:
            try:
                with write_transaction():
                    user = User.create(name=name)
            except IntegrityError:
                user = User.get(User.name == name)
    return user


def create_token(user: User, label: str = "") -> str:
    """A new token for ``user``; the caller shows it once."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with write_transaction():
        ApiToken.create(user=user, token_hash=hash_token(token), label=label)
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
    return User(id=row[0], name=row[1], created_at=row[2], citekey_format=row[3])


def store_is_empty() -> bool:
    return not User.select().exists()


def touch_token(token: str) -> None:
    ApiToken.update(last_used_at=utcnow()).where(ApiToken.token_hash == hash_token(token)).execute()


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
    with write_transaction():
        ApiToken.update(revoked=True).where(ApiToken.id == chosen[0].id).execute()
        sessions.end_sessions_of_token(chosen[0].id)
    chosen[0].revoked = True
    return chosen
