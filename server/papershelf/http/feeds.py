"""Live bibliographies: ``/api/feeds`` (create, list, revoke, with a token) and the feeds
themselves, ``/feeds/<secret>.<ext>``, whose secret is the only credential."""

from flask import Blueprint, Response, current_app, request, stream_with_context
from marshmallow import EXCLUDE, fields, pre_load, validate

from papershelf.formats import EXPORT_FORMATS
from papershelf.formats.cited import VENUE_NAMES, VERSIONS
from papershelf.http import current_user, doc, json_body, query_args
from papershelf.http.schemas import QUERY_MAX, TAG_LEN, StrictSchema
from papershelf.services import feeds

bp = Blueprint("api_feeds", __name__)


class FeedInSchema(StrictSchema):
    format = fields.String(load_default="bibtex", validate=validate.OneOf(list(EXPORT_FORMATS)))
    tag = fields.String(validate=validate.Length(max=TAG_LEN), allow_none=True)
    topic = fields.String(validate=validate.Length(max=TAG_LEN), allow_none=True)
    q = fields.String(validate=validate.Length(max=QUERY_MAX), allow_none=True)
    group = fields.Integer(allow_none=True, validate=validate.Range(min=1, max=2**63 - 1),
                           metadata={"description": "a feed of this group's shelf"})

    @pre_load
    def blank_is_absent(self, data, **kwargs):
        return {k: v for k, v in data.items() if v not in ("", None)}


class FeedSchema(StrictSchema):
    id = fields.Integer(required=True)
    format = fields.String(required=True)
    tag = fields.String(allow_none=True, required=True)
    topic = fields.String(allow_none=True, required=True)
    q = fields.String(allow_none=True, required=True)
    group = fields.Integer(allow_none=True, required=True)
    path = fields.String(required=True)
    url = fields.String(required=True, metadata={"description": "the feed's address: its only "
                                                 "credential, read-only; add ?version=preprint to "
                                                 "cite every paper as its preprint, ?venue=short "
                                                 "for short venue names (\"NeurIPS 2017\")"})
    created_at = fields.String(required=True)


class FeedQuerySchema(StrictSchema):
    """A feed's address takes the export's citing options: ``?version=preprint``, ``?venue=short``
    (other parameters, a client's cache buster, are ignored as they always were)."""

    class Meta:
        unknown = EXCLUDE

    version = fields.String(load_default="published", validate=validate.OneOf(VERSIONS))
    venue = fields.String(load_default="full", validate=validate.OneOf(VENUE_NAMES))

    @pre_load
    def blank_is_absent(self, data, **kwargs):
        return {k: v for k, v in data.items() if v != ""}


class FeedListSchema(StrictSchema):
    items = fields.List(fields.Nested(FeedSchema), required=True)


FEED_IN = FeedInSchema()
FEED_QUERY = FeedQuerySchema()


def _answer(feed) -> dict:
    record = feeds.feed_record(feed, current_app.config["SECRET_KEY"])
    return {**record, "url": request.host_url.rstrip("/") + record["path"]}


@bp.post("/api/feeds")
@doc(summary="Create a live bibliography: a read-only URL with the export of a filter",
     body=FeedInSchema, responses={201: FeedSchema})
def create_feed():
    data = json_body(FEED_IN)
    feed = feeds.create_feed(current_user(), current_app.config["SECRET_KEY"], **data)
    return _answer(feed), 201


@bp.get("/api/feeds")
@doc(summary="The user's feeds, with their URLs", responses={200: FeedListSchema})
def list_feeds():
    return {"items": [_answer(f) for f in feeds.list_feeds(current_user())]}


@bp.delete("/api/feeds/<id:feed_id>")
@doc(summary="Revoke a feed: its URL answers 404 from now on", responses={204: None})
def revoke_feed(feed_id):
    feeds.revoke_feed(current_user(), feed_id)
    return "", 204


@bp.get("/feeds/<name>")
def feed(name):
    """The feed's file, the same bytes as /api/export with its filter; 304 when unchanged."""
    found = feeds.feed_for(name)
    options = query_args(FEED_QUERY)
    version = feeds.feed_version(found)
    modified = feeds.http_date(version.last_modified)
    unchanged = (version.etag.strip('"') in request.if_none_match if request.if_none_match
                 else request.if_modified_since is not None and modified <= request.if_modified_since)
    if unchanged:
        response = Response(status=304)
    else:
        chunks = (c.encode("utf-8") for c in feeds.feed_chunks(found, **options))
        response = Response(stream_with_context(chunks), content_type=EXPORT_FORMATS[found.format][0])
    response.headers["ETag"] = version.etag
    response.headers["Cache-Control"] = "no-cache"
    response.last_modified = modified
    return response
