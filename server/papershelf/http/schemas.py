"""marshmallow schemas of the HTTP API: queries, the lookup body, every answer and the error.
The request bodies of papers, notes and highlights are the domain's (``domain.validation``).

The OpenAPI description (``/api/openapi.json``) is generated from these classes.
"""

from marshmallow import (
    Schema,
    ValidationError,
    fields,
    post_load,
    pre_load,
    validate,
    validates_schema,
)

from papershelf.domain.entry_types import READING_STATES
from papershelf.domain.record import HIGHLIGHT_RECORD, NOTE_RECORD
from papershelf.domain.validation import (  # noqa: F401 - the request bodies, for the views
    LOOKUP_MAX,
    OFFSETS,
    QUERY_MAX,
    TAG_LEN,
    USER_NAME_MAX,
    HighlightInSchema,
    HighlightPatchSchema,
    NoteInSchema,
    PaperCreateSchema,
    PaperPatchSchema,
    PaperSaveSchema,
    StrictSchema,
)
from papershelf.services.listing import SORTS
from papershelf.services.papers import BULK_MAX


class Strings(fields.List):
    """A list of strings of at most ``max_length`` characters each (the OpenAPI description
    says so as of ``List(String(validate=Length(max=…)))``), checked in one pass: a lookup
    holds up to 600, and field by field they cost a millisecond and a half. A list that holds
    anything else gets marshmallow's own errors, item by item."""

    def __init__(self, max_length: int, **kwargs) -> None:
        self.max_length = max_length
        super().__init__(fields.String(validate=validate.Length(max=max_length)), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is list and all(type(v) is str and len(v) <= self.max_length
                                       for v in value):
            return list(value)
        return super()._deserialize(value, attr, data, **kwargs)


class LookupSchema(StrictSchema):
    arxiv_ids = Strings(300, load_default=list, validate=validate.Length(max=LOOKUP_MAX))
    urls = Strings(2000, load_default=list, validate=validate.Length(max=LOOKUP_MAX))
    ids = Strings(2100, load_default=list, validate=validate.Length(max=LOOKUP_MAX), metadata={
        "description": "identities (doi:…, arxiv:…, openreview:…, acl:…, pmid:…, pmcid:…, "
                       "neurips:…, pmlr:…, cvf:…, ieee:…, pii:…, s2:…, url:…): any identity of "
                       "a saved paper finds it, answered under the key as asked"})

    @validates_schema
    def total(self, data, **kwargs):
        if sum(len(data.get(k, [])) for k in ("arxiv_ids", "urls", "ids")) > LOOKUP_MAX:
            raise ValidationError(f"at most {LOOKUP_MAX} ids and urls in one lookup", "_schema")


class PaperQuerySchema(StrictSchema):
    q = fields.String(validate=validate.Length(max=QUERY_MAX))
    tag = fields.String(validate=validate.Length(max=TAG_LEN))
    topic = fields.String(validate=validate.Length(max=TAG_LEN))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(validate=validate.Length(max=200))
    sort = fields.String(load_default="saved", validate=validate.OneOf(SORTS), metadata={
        "description": "saved (= added, newest first), published (newest first), title, "
                       "first_author, venue, citation_key (A–Z), state"})
    state = fields.String(validate=validate.OneOf(READING_STATES))
    starred = fields.Boolean(truthy={"1", "true", "yes", "on"}, falsy={"0", "false", "no", "off"})
    page = fields.Integer(validate=validate.Range(min=1, max=100_000),
                          metadata={"description": "a numbered page (from 1), of any sort"})

    @pre_load
    def blank_is_absent(self, data, **kwargs):
        return {k: v for k, v in data.items() if v != ""}


# ---- answers (dump side; documented in the OpenAPI description) ----


_INTEGER_FIELDS = {"id", "paper_id", "start", "end", "page"}
_READ_ONLY = {"id", "paper_id", "created_at", "updated_at"}


_DESCRIPTIONS = {"start": OFFSETS, "end": OFFSETS,
                 "section": "for a body highlight: the heading of the section it falls under",
                 "page": "for a PDF highlight (field pdf): its page, from 1; null otherwise"}


def _record_schema(name: str, field_names: tuple):
    """The answer schema of a note or highlight record, field by field from ``domain.record``."""
    return Schema.from_dict(
        {f: (fields.Integer if f in _INTEGER_FIELDS else fields.String)(
            dump_only=f in _READ_ONLY, allow_none=f == "page",
            metadata={"description": _DESCRIPTIONS[f]} if f in _DESCRIPTIONS else {})
         for f in field_names}, name=name)


NoteSchema = _record_schema("NoteSchema", NOTE_RECORD)
HighlightSchema = _record_schema("HighlightSchema", HIGHLIGHT_RECORD)


class EnrichmentSchema(Schema):
    state = fields.String(allow_none=True)
    reason = fields.String(allow_none=True)
    at = fields.String(allow_none=True)


class PublishedVersionSchema(Schema):
    entry_type = fields.String(metadata={"description": "inproceedings or article"})
    venue = fields.String(allow_none=True, metadata={"description": "the venue as shown "
                          "(\"NeurIPS 2017\" for the main venues)"})
    booktitle = fields.String(allow_none=True, metadata={"description": "the proceedings' full "
                              "title (inproceedings)"})
    journal = fields.String(allow_none=True, metadata={"description": "article"})
    year = fields.Integer(allow_none=True, metadata={"description": "the venue's year, from its "
                          "record (DBLP or Crossref), not the preprint's"})
    volume = fields.String(allow_none=True)
    number = fields.String(allow_none=True)
    pages = fields.String(allow_none=True)
    publisher = fields.String(allow_none=True)
    doi = fields.String(allow_none=True, metadata={"description": "the venue's DOI"})
    dblp = fields.String(allow_none=True, metadata={"description": "DBLP's key of the record"})
    source = fields.String(metadata={"description": "who linked it to the preprint: arxiv (its "
                           "own DOI), semantic_scholar (by arXiv id), dblp or crossref (a search "
                           "by title, first author and year)"})
    evidence = fields.String(allow_none=True, metadata={"description": "why it was accepted"})
    checked_at = fields.String()


class PaperSchema(Schema):
    id = fields.Integer(dump_only=True)
    arxiv_id = fields.String(allow_none=True)
    arxiv_version = fields.Integer(allow_none=True)
    doi = fields.String(allow_none=True)
    url = fields.String(allow_none=True)
    title = fields.String()
    authors = fields.List(fields.String())
    authors_more = fields.Integer()
    abstract = fields.String()
    published = fields.String(allow_none=True)
    published_precision = fields.String(
        allow_none=True, metadata={"description": "year or month: the source gave no day (no "
                                   "month); null: published is a full date"})
    affiliations = fields.List(fields.String())
    topics = fields.List(fields.String())
    tags = fields.List(fields.String())
    reading_state = fields.String(metadata={"description": "unread, to_read, reading or read"})
    starred = fields.Boolean()
    primary_category = fields.String(allow_none=True)
    categories = fields.List(fields.String())
    journal_ref = fields.String(allow_none=True)
    comments = fields.String(allow_none=True)
    entry_type = fields.String(allow_none=True, metadata={
        "description": "the BibTeX entry type (article, inproceedings, book, …); null: derived"})
    journal = fields.String(allow_none=True)
    booktitle = fields.String(allow_none=True)
    volume = fields.String(allow_none=True)
    number = fields.String(allow_none=True)
    pages = fields.String(allow_none=True)
    publisher = fields.String(allow_none=True)
    edition = fields.String(allow_none=True)
    editors = fields.List(fields.String())
    extra = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "an imported entry's other fields, as the file wrote them (BibTeX)"})
    verbatim = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                           dump_only=True, metadata={
        "description": "fields as an imported file wrote them, with a fingerprint of the values "
                       "they were read as: written back verbatim while those values stand"})
    source_url = fields.String(allow_none=True)
    pdf_url = fields.String(allow_none=True, metadata={
        "description": "the paper's PDF, as the page it was saved from links it"})
    citation_key = fields.String()
    key_aliases = fields.List(fields.String(), dump_only=True, metadata={
        "description": "the keys of papers merged into this one (exported as BibLaTeX ids)"})
    citation_key_pinned = fields.Boolean(dump_only=True, metadata={
        "description": "the user set the key (an edit, or the key of an imported file)"})
    citation_key_fixed = fields.Boolean(dump_only=True, metadata={
        "description": "false while the key is provisional and follows the metadata"})
    edited_fields = fields.List(fields.String(), dump_only=True)
    enriched_fields = fields.List(fields.String(), dump_only=True)
    enrichment = fields.Nested(EnrichmentSchema, dump_only=True)
    published_version = fields.Nested(PublishedVersionSchema, allow_none=True, metadata={
        "description": "the version a venue published, found in the catalogues and accepted "
                       "only when a catalogue links it to the arXiv id or title, authors and year "
                       "agree; null when none is known. (`published` is the preprint's date.) "
                       "PATCH null rejects the match: it is remembered and never offered again"})
    cite = fields.String(validate=validate.OneOf(("published", "preprint")), metadata={
        "description": "what the exports cite: published (the version, when there is one) or "
                       "preprint; PATCH \"preprint\" sticks across later checks"})
    created_at = fields.String(dump_only=True)
    updated_at = fields.String(dump_only=True)
    notes = fields.List(fields.Nested(NoteSchema), dump_only=True)
    highlights = fields.List(fields.Nested(HighlightSchema), dump_only=True)


class PaperPageSchema(Schema):
    items = fields.List(fields.Nested(PaperSchema))
    next_cursor = fields.String(allow_none=True)
    total = fields.Integer(metadata={"description": "papers matching the filters"})
    page = fields.Integer(allow_none=True, metadata={
        "description": "this page's number (null: reached by a keyset cursor)"})
    pages = fields.Integer()


_IDS = fields.List(fields.Integer(validate=validate.Range(min=1, max=2**63 - 1)),
                   required=True, validate=validate.Length(min=1, max=BULK_MAX))


class BulkSetSchema(StrictSchema):
    reading_state = fields.String(validate=validate.OneOf(READING_STATES))
    starred = fields.Boolean(truthy={True}, falsy={False})


class BulkPatchSchema(StrictSchema):
    ids = _IDS
    set = fields.Nested(BulkSetSchema, load_default=dict)
    add_tags = fields.List(fields.String(validate=validate.Length(min=1, max=TAG_LEN)),
                           load_default=list, validate=validate.Length(max=100))
    remove_tags = fields.List(fields.String(validate=validate.Length(min=1, max=TAG_LEN)),
                              load_default=list, validate=validate.Length(max=100))
    share_group = fields.Integer(validate=validate.Range(min=1, max=2**63 - 1),
                                 metadata={"description": "share every paper to this group"})

    @post_load
    def clean_tags(self, data, **kwargs):
        for key in ("add_tags", "remove_tags"):
            data[key] = [" ".join(t.split()) for t in data[key] if t.strip()]
        return data


class BulkResultSchema(Schema):
    updated = fields.Integer(required=True)


class IdsSchema(StrictSchema):
    ids = _IDS


class DeletedSchema(Schema):
    deleted = fields.List(fields.Integer(), required=True)
    restorable_for = fields.Integer(required=True, metadata={
        "description": "seconds during which POST /api/papers/restore brings them back"})


class RestoredSchema(Schema):
    restored = fields.List(fields.Integer(), required=True)


class MergeSchema(StrictSchema):
    other = fields.Integer(required=True, validate=validate.Range(min=1, max=2**63 - 1),
                           metadata={"description": "the paper merged into this one (deleted)"})


class DuplicateGroupSchema(Schema):
    reason = fields.String(required=True)
    papers = fields.List(fields.Nested(PaperSchema), required=True)


class DuplicatesSchema(Schema):
    groups = fields.List(fields.Nested(DuplicateGroupSchema), required=True)


class TagCountSchema(Schema):
    name = fields.String(required=True)
    count = fields.Integer(required=True)


class TagsSchema(Schema):
    tags = fields.List(fields.Nested(TagCountSchema), required=True)
    topics = fields.List(fields.Nested(TagCountSchema), required=True, metadata={
        "description": "the topics of the pages papers were saved from"})


class TagPatchSchema(StrictSchema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=TAG_LEN), metadata={
        "description": "the new name; another tag's name merges this one into it"})

    @post_load
    def clean(self, data, **kwargs):
        data["name"] = " ".join(data["name"].split())
        if not data["name"]:
            raise ValidationError({"name": ["A tag cannot be blank."]})
        return data


class LookupEntrySchema(Schema):
    id = fields.Integer(required=True)
    citation_key = fields.String(required=True)
    authors = fields.List(fields.String(), metadata={"description": "once enrichment is done"})
    authors_more = fields.Integer(metadata={"description": "once enrichment is done"})
    primary_category = fields.String(allow_none=True,
                                     metadata={"description": "once enrichment is done"})
    tags = fields.List(fields.String(), required=True)
    enrichment = fields.Nested(EnrichmentSchema, required=True)
    notes = fields.List(fields.Nested(NoteSchema), required=True)
    highlights = fields.List(fields.Nested(HighlightSchema), required=True)


_MEMBER = {"description": "the group member who wrote it: read-only to you"}
SharedHighlightSchema = Schema.from_dict(
    {**HighlightSchema().fields, "user": fields.String(metadata=_MEMBER)},
    name="SharedHighlightSchema")


class SharedGroupSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)


class SharedEntrySchema(Schema):
    """A group member's copy of a paper on the page, shared to a group of yours."""

    user = fields.String(required=True)
    paper_id = fields.Integer(required=True)
    groups = fields.List(fields.Nested(SharedGroupSchema), required=True)
    notes = fields.Integer(required=True, metadata={"description": "how many notes they left"})
    highlights = fields.List(fields.Nested(SharedHighlightSchema), required=True)


class LookupResultSchema(Schema):
    papers = fields.Dict(keys=fields.String(), values=fields.Nested(LookupEntrySchema))
    invalid = fields.List(fields.String())
    shared = fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(SharedEntrySchema)),
                         metadata={"description": "papers on the page that members of your "
                                   "groups saved and shared there ('Saved by bob · Lab')"})


class HealthSchema(Schema):
    status = fields.String()
    version = fields.String()


class ErrorDetailSchema(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    fields = fields.Dict()


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)
