"""Users and API tokens. A token is shown once; the store keeps only its SHA-256."""

import hashlib
import secrets

from peewee import IntegrityError

from papershelf.db import db, write_transaction
from papershelf.models import ApiToken, User, utcnow

TOKEN_PREFIX = "ps_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


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
    # Every request asks this: plain SQL, one indexed lookup.
    p = db.param
    row = db.execute_sql(
        f'SELECT u.id, u.name, u.created_at FROM api_token t JOIN "user" u ON u.id = t.user_id'
        f" WHERE t.token_hash = {p} AND t.revoked = {p}", (token_hash, False)).fetchone()
    if row is None or (user_id is not None and row[0] != user_id):
        return None
    return User(id=row[0], name=row[1], created_at=row[2])


def store_is_empty() -> bool:
    return not User.select().exists()


def touch_token(token: str) -> None:
    ApiToken.update(last_used_at=utcnow()).where(ApiToken.token_hash == hash_token(token)).execute()
