"""The store's tables: users, hashed API tokens, papers, tags, notes, highlights, groups and
their members and shares, feeds, library-page sessions, sign-in failures, the arXiv clock, and
the entries exports wrote."""

import json
from datetime import UTC, datetime

from peewee import (
    BlobField,
    BooleanField,
    CharField,
    CompositeKey,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
    fn,
)

from papershelf.domain import palette
from papershelf.store.db import db


def utcnow() -> datetime:
    """Naive UTC, the form both stores keep."""
    return datetime.now(UTC).replace(tzinfo=None)


class JSONField(TextField):
    """A JSON value kept as text, so SQLite and PostgreSQL store it the same way."""

    def db_value(self, value):
        return None if value is None else json.dumps(value, ensure_ascii=False)

    def python_value(self, value):
        if value == "[]" or value == "{}":  # most lists and maps are empty: no parse for them
            return [] if value == "[]" else {}
        return None if value is None else json.loads(value)


class BaseModel(Model):
    class Meta:
        database = db
        legacy_table_names = False


class User(BaseModel):
    name = CharField(max_length=100, unique=True)
    created_at = DateTimeField(default=utcnow)
    citekey_format = CharField(max_length=200, null=True)  # None: the default formula
    export_defaults = JSONField(default=dict)  # abstract, notes_field, encoding, cite


class ApiToken(BaseModel):
    user = ForeignKeyField(User, backref="tokens", on_delete="CASCADE")
    token_hash = CharField(max_length=64, unique=True)  # sha256 hex; the token itself is never kept
    label = CharField(max_length=100, default="")
    created_at = DateTimeField(default=utcnow)
    last_used_at = DateTimeField(null=True)
    revoked = BooleanField(default=False)
    expires_at = DateTimeField(null=True)  # None: never expires


class Paper(BaseModel):
    user = ForeignKeyField(User, backref="papers", on_delete="CASCADE")
    client_id = CharField(max_length=36, null=True)
    arxiv_id = CharField(max_length=64, null=True)
    arxiv_version = IntegerField(null=True)
    doi = CharField(max_length=300, null=True)
    url = CharField(max_length=2000, null=True)
    title = TextField()
    authors = JSONField(default=list)
    authors_more = IntegerField(default=0)
    abstract = TextField(default="")
    published = DateField(null=True)
    published_precision = CharField(max_length=8, null=True)  # year | month | None (a day)
    affiliations = JSONField(default=list)
    topics = JSONField(default=list)
    primary_category = CharField(max_length=64, null=True)
    categories = JSONField(default=list)
    journal_ref = TextField(null=True)
    comments = TextField(null=True)
    entry_type = CharField(max_length=32, null=True)
    journal = TextField(null=True)
    booktitle = TextField(null=True)
    volume = TextField(null=True)
    number = TextField(null=True)
    pages = TextField(null=True)
    publisher = TextField(null=True)
    edition = TextField(null=True)
    editors = JSONField(default=list)
    extra = JSONField(default=dict)  # an imported entry's other fields, as written
    verbatim = JSONField(default=dict)  # fields as an imported file wrote them, with fingerprints
    source_url = CharField(max_length=2000, null=True)
    pdf_url = CharField(max_length=2000, null=True)  # the PDF the page it was saved from links
    citation_key = CharField(max_length=200)
    citation_key_pinned = BooleanField(default=False)  # the user set it
    citation_key_fixed = BooleanField(default=False)  # pinned, complete or exported: never moves
    edited_fields = JSONField(default=list)  # fields the user changed: a page save never overwrites
    reading_state = CharField(max_length=16, default="unread")  # unread | to_read | reading | read
    starred = BooleanField(default=False)
    key_aliases = JSONField(default=list)  # keys of papers merged into this one (BibLaTeX ids)
    enriched_fields = JSONField(default=list)  # fields arXiv's API supplied: a page save keeps them
    enrichment = CharField(max_length=16, null=True)  # pending | done | failed | None (no arXiv id)
    enrichment_reason = TextField(null=True)
    enrichment_at = DateTimeField(null=True)
    enrichment_attempts = IntegerField(default=0)
    enrichment_due = DateTimeField(null=True)
    # the published version of a preprint (services.published): the version found with its
    # source, what the user chose to cite (None: the version when there is one), the matches
    # the user rejected (never offered again), and the check's queue
    published_version = JSONField(null=True)
    cite = CharField(max_length=16, null=True)  # published | preprint | None (derived)
    published_rejected = JSONField(default=list)
    resolve = CharField(max_length=16, null=True)  # pending | done | failed | None
    resolve_reason = TextField(null=True)
    resolve_at = DateTimeField(null=True)
    resolve_attempts = IntegerField(default=0)
    resolve_due = DateTimeField(null=True)
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = (
            (("user", "arxiv_id"), True),
            # works may share a DOI or a URL (a book's chapters, a proceedings volume's papers)
            (("user", "doi"), False),
            (("user", "url"), False),
            (("user", "client_id"), True),
            (("enrichment", "enrichment_due"), False),
            (("resolve", "resolve_due"), False),
            # A feed's version (count, ids, latest change of a user's papers) from the index alone.
            (("user", "updated_at"), False),
            (("user", "reading_state"), False),
            # A user's paper ids from the index alone: counting a search's matches (PostgreSQL
            # reads no paper row for it).
            (("user", "id"), False),
        )


USER_PAPER_IDS_INDEX = "paper_user_id_id"  # the name peewee gives the index of (user, id)

# Citation keys are unique per user without regard to case: BibTeX takes Vaswani2017 and
# vaswani2017 for one key.
CITATION_KEY_INDEX = "paper_user_id_citation_key_nocase"
Paper.add_index(Paper.index(Paper.user, fn.LOWER(Paper.citation_key), unique=True,
                            name=CITATION_KEY_INDEX))


class PaperIdentity(BaseModel):
    """One of a paper's identities (``domain.identities``: ``doi:…``, ``arxiv:…``, ``url:…``),
    as stored (``store.papers.identity_key``): any of them finds the paper. Works may share one
    (a book's chapters share its DOI), so (user, identity) is not unique."""

    user = ForeignKeyField(User, on_delete="CASCADE", index=False)
    paper = ForeignKeyField(Paper, backref="identities", on_delete="CASCADE", index=False)
    identity = CharField(max_length=600)

    class Meta:
        # (user, identity) finds the papers; the paper's id in the index too, so that a page's
        # lookup reads the index alone, not each identity's row.
        indexes = ((("user", "identity", "paper"), False), (("paper", "identity"), True))


class Tag(BaseModel):
    user = ForeignKeyField(User, backref="tags", on_delete="CASCADE")
    name = CharField(max_length=100)

    class Meta:
        indexes = ((("user", "name"), True),)


# A group's shelf filters by any sharer's tag of a name, without regard to case.
TAG_NAME_INDEX = "tag_lower_name"
Tag.add_index(Tag.index(fn.LOWER(Tag.name), name=TAG_NAME_INDEX))


class PaperTag(BaseModel):
    paper = ForeignKeyField(Paper, backref="paper_tags", on_delete="CASCADE")
    tag = ForeignKeyField(Tag, backref="paper_tags", on_delete="CASCADE")
    position = IntegerField(default=0)

    class Meta:
        indexes = ((("paper", "tag"), True),)


class Annotation(BaseModel):
    """What notes and highlights share: their user, a retry key, their timestamps. Each kind
    has its own table and its own link to the paper (``paper``)."""

    user = ForeignKeyField(User, on_delete="CASCADE")
    client_id = CharField(max_length=36, null=True)
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("user", "client_id"), True),)


class Note(Annotation):
    paper = ForeignKeyField(Paper, backref="notes", on_delete="CASCADE")
    body = TextField()


class Highlight(Annotation):
    paper = ForeignKeyField(Paper, backref="highlights", on_delete="CASCADE")
    field = CharField(max_length=16, default="abstract")
    exact = TextField()
    prefix = CharField(max_length=64, default="")
    suffix = CharField(max_length=64, default="")
    start = IntegerField()
    end = IntegerField()
    color = CharField(max_length=16, default=palette.DEFAULT)
    comment = TextField(default="")
    section = CharField(max_length=300, default="")  # body: the heading it falls under
    page = IntegerField(null=True)  # pdf: the page (from 1) whose normalized text it is in


class Group(BaseModel):
    """A team's shared shelf: its members see what any of them shared to it."""

    name = CharField(max_length=100)
    owner = ForeignKeyField(User, on_delete="CASCADE")
    created_at = DateTimeField(default=utcnow)

    class Meta:
        table_name = "user_group"  # GROUP is an SQL keyword


class Feed(BaseModel):
    """A live bibliography: a read-only URL whose secret is its only credential. The secret is
    derived from the server's key and ``nonce`` (so its owner can copy the URL again) and only
    its SHA-256 is looked up."""

    user = ForeignKeyField(User, backref="feeds", on_delete="CASCADE")
    nonce = CharField(max_length=64)
    secret_hash = CharField(max_length=64, unique=True)
    format = CharField(max_length=16, default="bibtex")
    tag = CharField(max_length=100, null=True)
    topic = CharField(max_length=100, null=True)
    q = CharField(max_length=500, null=True)
    created_at = DateTimeField(default=utcnow)
    group = ForeignKeyField(Group, null=True, on_delete="CASCADE")  # a group's shelf


class WebSession(BaseModel):
    """A library-page sign-in. The cookie holds a random secret; the store keeps its SHA-256.
    Signing out deletes the row, and so does revoking the token it signed in with."""

    user = ForeignKeyField(User, on_delete="CASCADE")
    token = ForeignKeyField(ApiToken, on_delete="CASCADE")
    secret_hash = CharField(max_length=64, unique=True)
    created_at = DateTimeField(default=utcnow)
    expires_at = DateTimeField(index=True)


class AuthFailure(BaseModel):
    """Failed authentications per client address and minute, counted in the store so that every
    server process on it (and every host, on PostgreSQL) applies one brake."""

    address = CharField(max_length=64)
    minute = IntegerField()  # minutes since the epoch
    count = IntegerField(default=0)

    class Meta:
        indexes = ((("address", "minute"), True),)


class GroupMember(BaseModel):
    group = ForeignKeyField(Group, backref="members", on_delete="CASCADE")
    user = ForeignKeyField(User, on_delete="CASCADE")
    added_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("group", "user"), True), (("user", "group"), False))


class PaperShare(BaseModel):
    """A paper its owner shared to a group."""

    paper = ForeignKeyField(Paper, backref="shares", on_delete="CASCADE")
    group = ForeignKeyField(Group, on_delete="CASCADE")
    shared_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("paper", "group"), True), (("group", "paper"), False))


class ArxivClock(BaseModel):
    """When the next arXiv call may start, per arXiv host: one row that every process and host
    reads and moves under its row lock, so calls stay spaced across all of them."""

    host = CharField(max_length=300, primary_key=True)
    next_at = DateTimeField()


class DeletedPaper(BaseModel):
    """A paper deleted lately, as its rows were (the paper, its tags, notes, highlights and
    shares): restorable, with its id, until the window of ``services.trash`` closes."""

    user = ForeignKeyField(User, on_delete="CASCADE")
    paper_id = IntegerField()
    rows = JSONField(default=dict)
    deleted_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("user", "paper_id"), True), (("deleted_at",), False))


class WrittenEntry(BaseModel):
    """A paper's BibTeX or BibLaTeX entry as an export wrote it (``services.entry_cache``): one
    for each kind of export (format, options and the writer's code, ``kind``), kept with the
    digest of what it was written from and served only for exactly that input again. Derived
    data: never in a backup; losing it costs the next export the time to write it anew."""

    paper = ForeignKeyField(Paper, on_delete="CASCADE", index=False)
    kind = CharField(max_length=64)
    writer = CharField(max_length=32)
    digest = BlobField()
    entry = TextField()

    class Meta:
        primary_key = CompositeKey("paper", "kind")


ALL_MODELS = [User, ApiToken, Paper, PaperIdentity, Tag, PaperTag, Note, Highlight, Feed, Group,
              GroupMember, PaperShare, ArxivClock, WebSession, AuthFailure, DeletedPaper,
              WrittenEntry]
