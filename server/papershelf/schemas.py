"""marshmallow schemas: every request body and query, every answer. Unknown fields are rejected.

The OpenAPI description (``/api/openapi.json``) is generated from these classes.
"""

import re
import unicodedata

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    post_load,
    pre_load,
    validate,
    validates_schema,
)

from papershelf.domain import identifiers, palette

TITLE_MAX = 1000
ABSTRACT_MAX = 20_000
NOTE_MAX = 100_000
EXACT_MAX = 2000
CONTEXT_MAX = 64
AUTHORS_MAX = 2000
TAGS_MAX = 100
TAG_LEN = 100
LOOKUP_MAX = 1000
HIGHLIGHT_FIELDS = ("abstract", "title")
CITATION_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:.\-+/]{0,99}$")


def _clean(s: str) -> str:
    """NFC and trimmed; inner whitespace kept (abstracts and notes have their own line breaks)."""
    return unicodedata.normalize("NFC", s).strip()


def _clean_list(values, *, dedupe=False):
    out, seen = [], set()
    for v in values or []:
        v = " ".join(_clean(v).split())
        if not v or (dedupe and v.casefold() in seen):
            continue
        seen.add(v.casefold())
        out.append(v)
    return out


class _Normalized(fields.String):
    """A string field whose value is put in canonical form by ``normalizer`` (ValueError = invalid)."""

    normalizer = staticmethod(lambda v: v)

    def __init__(self, max_length: int, **kwargs):
        super().__init__(allow_none=True, **kwargs)
        self.max_length = max_length

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if not text or not text.strip():
            return None
        if len(text) > self.max_length:
            raise ValidationError(f"Longer than maximum length {self.max_length}.")
        try:
            return self.normalizer(text)
        except ValueError as e:
            raise ValidationError(str(e)) from e


class ArxivIdField(_Normalized):
    normalizer = staticmethod(lambda v: identifiers.normalize_arxiv_id(v)[0])


class DoiField(_Normalized):
    normalizer = staticmethod(identifiers.normalize_doi)


class UrlField(_Normalized):
    normalizer = staticmethod(identifiers.normalize_url)


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


def _str(max_len, **kw):
    return fields.String(validate=validate.Length(max=max_len), **kw)


def _str_list(max_items, max_len, **kw):
    return fields.List(
        fields.String(validate=validate.Length(max=max_len)),
        validate=validate.Length(max=max_items),
        **kw,
    )


class PaperFieldsSchema(StrictSchema):
    """The fields a page (or a person) can give for a paper."""

    arxiv_id = ArxivIdField(300,
                             metadata={"description": "any form: 2603.01234v2, arXiv:…, abs/pdf URLs"})
    arxiv_version = fields.Integer(allow_none=True, validate=validate.Range(min=1, max=1000))
    doi = DoiField(300)
    url = UrlField(2000)
    title = fields.String(required=True, validate=validate.Length(min=1, max=TITLE_MAX))
    authors = _str_list(AUTHORS_MAX, 300)
    authors_more = fields.Integer(validate=validate.Range(min=0, max=100_000))
    abstract = _str(ABSTRACT_MAX)
    published = fields.Date(allow_none=True)
    affiliations = _str_list(500, 1000)
    topics = _str_list(TAGS_MAX, TAG_LEN)
    tags = _str_list(TAGS_MAX, TAG_LEN)
    primary_category = fields.String(allow_none=True, validate=validate.Length(max=64))
    categories = _str_list(50, 64)
    journal_ref = fields.String(allow_none=True, validate=validate.Length(max=1000))
    comments = fields.String(allow_none=True, validate=validate.Length(max=2000))
    source_url = UrlField(2000)

    @pre_load
    def version_from_id(self, data, **kwargs):
        """``arXiv:2603.01234v2`` also says the version, unless the body gives one."""
        raw = data.get("arxiv_id") if isinstance(data, dict) else None
        if isinstance(raw, str) and data.get("arxiv_version") is None:
            try:
                version = identifiers.normalize_arxiv_id(raw)[1]
            except ValueError:
                version = None
            if version:
                data = {**data, "arxiv_version": version}
        return data

    @post_load
    def normalize(self, data, **kwargs):
        errors = {}
        if "title" in data:
            data["title"] = " ".join(_clean(data["title"]).split())
            if not data["title"]:
                errors["title"] = ["The title cannot be blank."]
        if "abstract" in data:
            data["abstract"] = _clean(data["abstract"] or "")
        for key in ("authors", "affiliations", "categories"):
            if key in data:
                data[key] = _clean_list(data[key])
        for key in ("tags", "topics"):
            if key in data:
                data[key] = _clean_list(data[key], dedupe=True)
        if errors:
            raise ValidationError(errors)
        return data


class PaperCreateSchema(PaperFieldsSchema):
    client_id = fields.UUID(allow_none=True, metadata={"description": "makes retries idempotent"})

    @post_load
    def client_id_text(self, data, **kwargs):
        if data.get("client_id") is not None:
            data["client_id"] = str(data["client_id"])
        return data


class PaperPatchSchema(PaperFieldsSchema):
    citation_key = fields.String(validate=validate.Regexp(
        CITATION_KEY, error="A citation key is 1–100 of A–Z a–z 0–9 and _:.-+/ ."))


class NoteInSchema(StrictSchema):
    body = fields.String(required=True, validate=validate.Length(min=1, max=NOTE_MAX))
    client_id = fields.UUID(allow_none=True)

    @post_load
    def finish(self, data, **kwargs):
        if not data.get("body", "x").strip():
            raise ValidationError({"body": ["A note cannot be blank."]})
        if data.get("client_id") is not None:
            data["client_id"] = str(data["client_id"])
        return data


class HighlightInSchema(StrictSchema):
    field = fields.String(load_default="abstract", validate=validate.OneOf(HIGHLIGHT_FIELDS))
    exact = fields.String(required=True, validate=validate.Length(min=1, max=EXACT_MAX))
    prefix = fields.String(load_default="", validate=validate.Length(max=CONTEXT_MAX))
    suffix = fields.String(load_default="", validate=validate.Length(max=CONTEXT_MAX))
    start = fields.Integer(required=True, validate=validate.Range(min=0, max=ABSTRACT_MAX * 2))
    end = fields.Integer(required=True, validate=validate.Range(min=0, max=ABSTRACT_MAX * 2))
    color = fields.String(load_default=palette.DEFAULT, validate=validate.OneOf(palette.NAMES))
    comment = fields.String(load_default="", validate=validate.Length(max=NOTE_MAX))
    client_id = fields.UUID(allow_none=True)

    @validates_schema
    def positions(self, data, partial=None, **kwargs):
        start, end = data.get("start"), data.get("end")
        if start is not None and end is not None and end <= start:
            raise ValidationError("end must be greater than start", field_name="end")

    @post_load
    def finish(self, data, **kwargs):
        if data.get("client_id") is not None:
            data["client_id"] = str(data["client_id"])
        return data


class HighlightPatchSchema(StrictSchema):
    color = fields.String(validate=validate.OneOf(palette.NAMES))
    comment = fields.String(validate=validate.Length(max=NOTE_MAX))


class LookupSchema(StrictSchema):
    arxiv_ids = fields.List(fields.String(validate=validate.Length(max=300)),
                            load_default=list, validate=validate.Length(max=LOOKUP_MAX))
    urls = fields.List(fields.String(validate=validate.Length(max=2000)),
                       load_default=list, validate=validate.Length(max=LOOKUP_MAX))

    @validates_schema
    def total(self, data, **kwargs):
        if len(data.get("arxiv_ids", [])) + len(data.get("urls", [])) > LOOKUP_MAX:
            raise ValidationError(f"at most {LOOKUP_MAX} ids and urls in one lookup", "_schema")


class PaperQuerySchema(StrictSchema):
    q = fields.String(validate=validate.Length(max=500))
    tag = fields.String(validate=validate.Length(max=TAG_LEN))
    topic = fields.String(validate=validate.Length(max=TAG_LEN))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(validate=validate.Length(max=200))
    sort = fields.String(load_default="saved", validate=validate.OneOf(("saved", "published")))

    @pre_load
    def blank_is_absent(self, data, **kwargs):
        return {k: v for k, v in data.items() if v != ""}


# ---- answers (dump side; documented in the OpenAPI description) ----


class NoteSchema(Schema):
    id = fields.Integer(dump_only=True)
    paper_id = fields.Integer(dump_only=True)
    body = fields.String()
    created_at = fields.String(dump_only=True)
    updated_at = fields.String(dump_only=True)


class HighlightSchema(Schema):
    id = fields.Integer(dump_only=True)
    paper_id = fields.Integer(dump_only=True)
    field = fields.String()
    exact = fields.String()
    prefix = fields.String()
    suffix = fields.String()
    start = fields.Integer()
    end = fields.Integer()
    color = fields.String()
    comment = fields.String()
    created_at = fields.String(dump_only=True)
    updated_at = fields.String(dump_only=True)


class EnrichmentSchema(Schema):
    state = fields.String(allow_none=True)
    reason = fields.String(allow_none=True)
    at = fields.String(allow_none=True)


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
    affiliations = fields.List(fields.String())
    topics = fields.List(fields.String())
    tags = fields.List(fields.String())
    primary_category = fields.String(allow_none=True)
    categories = fields.List(fields.String())
    journal_ref = fields.String(allow_none=True)
    comments = fields.String(allow_none=True)
    source_url = fields.String(allow_none=True)
    citation_key = fields.String()
    edited_fields = fields.List(fields.String(), dump_only=True)
    enriched_fields = fields.List(fields.String(), dump_only=True)
    enrichment = fields.Nested(EnrichmentSchema, dump_only=True)
    created_at = fields.String(dump_only=True)
    updated_at = fields.String(dump_only=True)
    notes = fields.List(fields.Nested(NoteSchema), dump_only=True)
    highlights = fields.List(fields.Nested(HighlightSchema), dump_only=True)


class PaperPageSchema(Schema):
    items = fields.List(fields.Nested(PaperSchema))
    next_cursor = fields.String(allow_none=True)


class LookupEntrySchema(Schema):
    id = fields.Integer()
    citation_key = fields.String()
    authors = fields.List(fields.String(), metadata={"description": "once enrichment is done"})
    authors_more = fields.Integer()
    primary_category = fields.String(allow_none=True)
    tags = fields.List(fields.String())
    enrichment = fields.Nested(EnrichmentSchema)
    notes = fields.List(fields.Nested(NoteSchema))
    highlights = fields.List(fields.Nested(HighlightSchema))


class LookupResultSchema(Schema):
    papers = fields.Dict(keys=fields.String(), values=fields.Nested(LookupEntrySchema))
    invalid = fields.List(fields.String())


class HealthSchema(Schema):
    status = fields.String()
    version = fields.String()


class ErrorDetailSchema(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    fields = fields.Dict()


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)
