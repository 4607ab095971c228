"""Live bibliographies: a read-only URL that answers the export of a filter, kept up to date.

``<server>/feeds/<secret>.<ext>`` is the whole credential (Overleaf can only fetch a URL). The
secret is derived from the server's key and the feed's random nonce, so its owner can copy the
URL again, and 192 bits long; the store keeps only its SHA-256, which is what a request is
looked up by. A feed answers exactly the bytes of ``/api/export`` with its filter; its version
(the ETag) is a fingerprint of the papers the filter selects — how many, which, and the latest
change to any of them or their notes and highlights — so an unchanged library answers 304
after one aggregate query, without building the export.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from peewee import fn

from papershelf.domain.errors import NotFound
from papershelf.formats import EXPORT_FORMATS
from papershelf.services import groups, listing, transfer
from papershelf.store.db import read_timestamp, write
from papershelf.store.models import Feed, Paper, User

SECRET_PREFIX = "f"
FILTERS = ("tag", "topic", "q")


def _secret(server_key: str, nonce: str) -> str:
    digest = hmac.new(server_key.encode(), f"feed:{nonce}".encode(), hashlib.sha256).digest()
    return SECRET_PREFIX + base64.urlsafe_b64encode(digest[:24]).decode()  # 192 bits


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def feed_path(feed: Feed, server_key: str) -> str:
    """The feed's path on this server: ``/feeds/<secret>.<ext>``."""
    return f"/feeds/{_secret(server_key, feed.nonce)}.{EXPORT_FORMATS[feed.format][1]}"


def feed_record(feed: Feed, server_key: str) -> dict:
    return {"id": feed.id, "format": feed.format, "tag": feed.tag, "topic": feed.topic,
            "q": feed.q, "group": feed.group_id, "path": feed_path(feed, server_key),
            "created_at": feed.created_at.isoformat(timespec="microseconds") + "Z"}


def create_feed(user: User, server_key: str, *, format: str = "bibtex", tag=None, topic=None,
                q=None, group=None) -> Feed:
    """A feed of the user's papers, or (``group``) of a group's shelf the user is a member of."""
    nonce = secrets.token_hex(16)

    def create():
        if group is not None:
            groups.get_group(user, group)
        return Feed.create(user=user, nonce=nonce, secret_hash=_hash(_secret(server_key, nonce)),
                           format=format, tag=tag or None, topic=topic or None, q=q or None,
                           group=group)

    return write(create)


def list_feeds(user: User) -> list[Feed]:
    return list(Feed.select().where(Feed.user == user).order_by(Feed.id))


def revoke_feed(user: User, feed_id: int) -> None:
    """Delete the feed: its URL answers 404 from now on."""
    if not write(lambda: Feed.delete().where((Feed.id == feed_id) & (Feed.user == user))
                 .execute()):
        raise NotFound("no such feed")


def feed_for(secret_and_ext: str) -> Feed:
    """The feed a ``<secret>.<ext>`` names (its extension must be its format's), or NotFound."""
    secret, _, ext = secret_and_ext.rpartition(".")
    feed = Feed.get_or_none(Feed.secret_hash == _hash(secret)) if secret else None
    if feed is None or EXPORT_FORMATS[feed.format][1] != ext:
        raise NotFound("no such feed")
    if feed.group_id is not None:
        groups.get_group(feed.user, feed.group_id)  # its owner left the group: it is gone
    return feed


@dataclass(frozen=True)
class Version:
    etag: str
    last_modified: datetime


def version(user: User, *, format: str, tag=None, topic=None, q=None, ids=None,
            salt: str = "") -> Version:
    """A fingerprint of what an export with this filter would contain, from one aggregate query
    (count, sum and maximum of the ids, latest ``updated_at``: an added, removed or changed
    paper — or note or highlight, which touch their paper — changes it)."""
    query = listing.filtered(user, q=q, tag=tag, topic=topic, ids=ids).select(
        fn.COUNT(Paper.id), fn.SUM(Paper.id), fn.MAX(Paper.id), fn.MAX(Paper.updated_at))
    count, id_sum, id_max, latest = query.tuples().get()
    latest = read_timestamp(latest)
    text = f"{salt}|{format}|{tag}|{topic}|{q}|{ids}|{count}|{id_sum}|{id_max}|{latest}"
    etag = '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
    return Version(etag, latest or user.created_at)


def group_version(group_id: int, *, format: str, tag=None, topic=None, q=None,
                  salt: str = "") -> Version:
    """``version`` of a group's shelf with this filter (a share or an unshare changes it too)."""
    query = groups.filtered(group_id, q=q, tag=tag, topic=topic).select(
        fn.COUNT(Paper.id), fn.SUM(Paper.id), fn.MAX(Paper.id), fn.MAX(Paper.updated_at))
    count, id_sum, id_max, latest = query.tuples().get()
    latest = read_timestamp(latest)
    text = f"{salt}|group {group_id}|{format}|{tag}|{topic}|{q}|{count}|{id_sum}|{id_max}|{latest}"
    etag = '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
    return Version(etag, latest or datetime(2000, 1, 1))


def feed_version(feed: Feed) -> Version:
    if feed.group_id is not None:
        return group_version(feed.group_id, format=feed.format, tag=feed.tag, topic=feed.topic,
                             q=feed.q, salt=str(feed.id))
    return version(feed.user, format=feed.format, tag=feed.tag, topic=feed.topic, q=feed.q,
                   salt=str(feed.id))


def feed_chunks(feed: Feed, **options):
    """The feed's file, in chunks: the same bytes as ``/api/export`` with its filter (and
    ``options``: ``version``, ``venue``)."""
    if feed.group_id is not None:
        return groups.export_chunks(feed.user, feed.group_id, feed.format, tag=feed.tag,
                                    topic=feed.topic, q=feed.q, abstract=True,
                                    notes_field="annote", encoding="latex", **options)
    return transfer.export_chunks(feed.user, feed.format, tag=feed.tag, topic=feed.topic, q=feed.q,
                                  abstract=True, notes_field="annote", encoding="latex", **options)


def http_date(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC, microsecond=0)
