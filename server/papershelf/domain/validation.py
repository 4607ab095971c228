"""What a valid paper, note and highlight is: the limits (``LIMITS``: the ones the extension and the
library page's inputs take too) and the marshmallow schemas that check and normalize them. The
HTTP layer loads request bodies with them; the importer loads each record of a file with them, so
a file is held to the same rules as the API.

``load`` answers the cleaned data or raises the domain's ``Invalid`` with per-field messages.
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
from papershelf.domain.anchoring import CONTEXT_CHARS, utf16_units
from papershelf.domain.entry_types import READING_STATES
from papershelf.domain.errors import Invalid
from papershelf.domain.record import is_provisional_title

# The limits of what a person writes or a page gives. The extension (lib/limits.js) and the
# library page's inputs take theirs from these: tests/shared/limits.json holds the names both use.
TITLE_MAX = 1000
ABSTRACT_MAX = 20_000
NOTE_MAX = 100_000
COMMENT_MAX = NOTE_MAX  # a highlight's comment is a note on the highlight
EXACT_MAX = 2000
CONTEXT_MAX = CONTEXT_CHARS
AUTHORS_MAX = 2000
AUTHOR_LEN = 300
TAGS_MAX = 100
TAG_LEN = 100
LOOKUP_MAX = 1000
# body: the full text of an arXiv HTML page; pdf: a page of the paper's PDF (with its `page`)
HIGHLIGHT_FIELDS = ("abstract", "title", "body", "pdf")
PAGE_MAX = 100_000  # a PDF highlight's page number (1-based)
SECTION_MAX = 300  # a body highlight's section: the heading it falls under
CITATION_KEY_LEN = 100
QUERY_MAX = 500  # a search's words
USER_NAME_MAX = 100
LIMITS = {
    "title": TITLE_MAX, "abstract": ABSTRACT_MAX, "note": NOTE_MAX, "comment": COMMENT_MAX,
    "exact": EXACT_MAX, "context": CONTEXT_MAX, "section": SECTION_MAX, "authors": AUTHORS_MAX,
    "author": AUTHOR_LEN, "tags": TAGS_MAX, "tag": TAG_LEN, "citation_key": CITATION_KEY_LEN,
    "lookup": LOOKUP_MAX, "query": QUERY_MAX, "user_name": USER_NAME_MAX,
}
OFFSET_MAX = 5_000_000  # a paper's full text, in UTF-16 units
CITATION_KEY = re.compile(rf"^[A-Za-z0-9][A-Za-z0-9_:.\-+/]{{0,{CITATION_KEY_LEN - 1}}}$")
VENUE_MAX = 1000  # journal, booktitle, publisher
NUMBER_MAX = 200  # volume, number, pages, edition
EXTRA_FIELDS_MAX = 200
EXTRA_VALUE_MAX = ABSTRACT_MAX
ENTRY_TYPE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")
# A BibTeX field name as BibTeX reads one: a letter or "_" first (JabRef's "__markedentry"),
# never a digit; as the store keeps it, lower-case (FIELD_NAME); as a file or the API gives it,
# in any case (EXTRA_FIELD_NAME).
# Each pattern is written as JavaScript reads it too (the OpenAPI document carries it) and used
# with fullmatch, so that a trailing newline never passes ("x\n" matches "^x$" in Python).
FIELD_NAME = re.compile(r"^[a-z_][a-z0-9_:.+-]{0,63}$")
EXTRA_FIELD_NAME = re.compile(FIELD_NAME.pattern, re.IGNORECASE)
class _Whole(validate.Regexp):
    """A Regexp validator that takes the whole string (fullmatch), as the patterns mean."""

    def __call__(self, value):
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


PRECISIONS = ("year", "month")
_PARTIAL_DATE = re.compile(r"^\s*(\d{4})(?:-(\d{2}))?\s*$")


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


class PublishedField(fields.Date):
    """A date, or only its year (``2017``) or year and month (``2017-05``): stored as the first
    day of that year or month; the schema records how precise it was in ``published_precision``."""

    def _deserialize(self, value, attr, data, **kwargs):
        m = _PARTIAL_DATE.match(value) if isinstance(value, str) else None
        if m:
            value = f"{m[1]}-{m[2] or '01'}-01"
        return super()._deserialize(value, attr, data, **kwargs)


def date_precision(value) -> str | None:
    """``"year"`` for ``2017``, ``"month"`` for ``2017-05``, None for a full date (or no date)."""
    m = _PARTIAL_DATE.match(value) if isinstance(value, str) else None
    if not m:
        return None
    return "month" if m[2] else "year"


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
    authors = _str_list(AUTHORS_MAX, AUTHOR_LEN)
    authors_more = fields.Integer(validate=validate.Range(min=0, max=100_000))
    abstract = _str(ABSTRACT_MAX)
    published = PublishedField(allow_none=True, metadata={
        "description": "a date, or only a year (2017) or a year and month (2017-05)"})
    published_precision = fields.String(allow_none=True, validate=validate.OneOf(PRECISIONS),
                                        metadata={"description": "year or month: published is "
                                                  "only that precise (default: from published)"})
    affiliations = _str_list(500, 1000)
    topics = _str_list(TAGS_MAX, TAG_LEN)
    tags = _str_list(TAGS_MAX, TAG_LEN)
    primary_category = fields.String(allow_none=True, validate=validate.Length(max=64))
    categories = _str_list(50, 64)
    journal_ref = fields.String(allow_none=True, validate=validate.Length(max=1000))
    comments = fields.String(allow_none=True, validate=validate.Length(max=2000))
    entry_type = fields.String(allow_none=True, validate=_Whole(
        ENTRY_TYPE, error="A BibTeX entry type: a letter, then up to 31 of A–Z a–z 0–9 _ -."),
        metadata={"description": "the BibTeX entry type: article, inproceedings, book, …"})
    journal = _str(VENUE_MAX, allow_none=True)
    booktitle = _str(VENUE_MAX, allow_none=True)
    volume = _str(NUMBER_MAX, allow_none=True)
    number = _str(NUMBER_MAX, allow_none=True)
    pages = _str(NUMBER_MAX, allow_none=True)
    publisher = _str(VENUE_MAX, allow_none=True)
    edition = _str(NUMBER_MAX, allow_none=True)
    editors = _str_list(AUTHORS_MAX, AUTHOR_LEN)
    extra = fields.Dict(
        keys=fields.String(validate=_Whole(
            EXTRA_FIELD_NAME, error="A field name: a letter or _, then up to 63 of A–Z a–z 0–9 _:.+-.")),
        values=fields.String(validate=validate.Length(max=EXTRA_VALUE_MAX)),
        validate=validate.Length(max=EXTRA_FIELDS_MAX),
        metadata={"description": "other BibTeX fields, as written (exported back)"})
    source_url = UrlField(2000)
    pdf_url = UrlField(2000, metadata={
        "description": "the paper's PDF, as the page links it: the paper is known by it too"})

    @pre_load
    def precision_from_date(self, data, **kwargs):
        """``published: "2017"`` says the date is a year only, unless the body says otherwise."""
        if isinstance(data, dict) and "published" in data and "published_precision" not in data:
            data = {**data, "published_precision": date_precision(data["published"])}
        return data

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
        for key in ("authors", "affiliations", "categories", "editors"):
            if key in data:
                data[key] = _clean_list(data[key])
        for key in ("journal", "booktitle", "volume", "number", "pages", "publisher", "edition",
                    "entry_type"):
            if key in data and data[key] is not None:
                data[key] = " ".join(_clean(data[key]).split()) or None
        if data.get("entry_type"):
            data["entry_type"] = data["entry_type"].lower()
        if "extra" in data:
            extra = {}
            for name, value in (data["extra"] or {}).items():
                if value is not None and value.strip():
                    extra[name.lower()] = unicodedata.normalize("NFC", value).strip()
            data["extra"] = extra
        for key in ("tags", "topics"):
            if key in data:
                data[key] = _clean_list(data[key], dedupe=True)
        if errors:
            raise ValidationError(errors)
        return data


class ClientId(fields.UUID):
    """A client's retry key (a UUID), kept as its text: the same key makes a retry idempotent."""

    def __init__(self, **kwargs):
        super().__init__(allow_none=True, metadata={"description": "makes retries idempotent"},
                         **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        uuid = super()._deserialize(value, attr, data, **kwargs)
        return None if uuid is None else str(uuid)


GROUPS_MAX = 100


def _group_ids(description: str):
    return fields.List(fields.Integer(validate=validate.Range(min=1, max=2**63 - 1)),
                       validate=validate.Length(max=GROUPS_MAX),
                       metadata={"description": description})


class PaperCreateSchema(PaperFieldsSchema):
    client_id = ClientId()
    groups = _group_ids("share the paper to these groups of yours (added to those it is "
                        "shared to already)")


class PaperSaveSchema(PaperCreateSchema):
    """A save from a page or a tab: the title may be missing when an arXiv id is given (a PDF
    tab); the paper then gets a provisional title that arXiv's answer replaces."""

    title = fields.String(validate=validate.Length(min=1, max=TITLE_MAX), metadata={
        "description": "required unless arxiv_id is given; without it the paper is titled "
                       "arXiv:<id> until the arXiv API answers"})

    @validates_schema
    def title_or_arxiv_id(self, data, partial=None, **kwargs):
        if not data.get("title") and not data.get("arxiv_id"):
            raise ValidationError("A title is required (or an arXiv id).", field_name="title")

    @post_load
    def no_title_that_only_names_the_id(self, data, **kwargs):
        """A title that is only the paper's id (``2603.01234``, as earlier extensions sent for a
        page without one) is no title: it neither titles a new paper nor replaces a real one."""
        if is_provisional_title(data.get("title"), data.get("arxiv_id")):
            del data["title"]
        return data


class PaperPatchSchema(PaperFieldsSchema):
    cite = fields.String(validate=validate.OneOf(("published", "preprint")), metadata={
        "description": "what the exports cite; \"preprint\" sticks across later checks"})
    published_version = fields.Raw(allow_none=True, metadata={
        "description": "only null: rejects the published version found (never offered again)"})
    groups = _group_ids("the groups the paper is shared to, all of them ([]: private)")
    reading_state = fields.String(validate=validate.OneOf(READING_STATES),
                                  metadata={"description": "unread (default), to_read, reading, read"})
    starred = fields.Boolean(truthy={True}, falsy={False})
    citation_key = fields.String(validate=_Whole(
        CITATION_KEY, error=f"A citation key is 1–{CITATION_KEY_LEN} of A–Z a–z 0–9 and _:.-+/ ."))


class NoteInSchema(StrictSchema):
    body = fields.String(required=True, validate=validate.Length(min=1, max=NOTE_MAX))
    client_id = ClientId()

    @post_load
    def not_blank(self, data, **kwargs):
        if not data.get("body", "x").strip():
            raise ValidationError({"body": ["A note cannot be blank."]})
        return data


OFFSETS = ("UTF-16 code units in the field's normalized text (NFC, whitespace folded, trimmed): "
           "JavaScript string offsets, as the extension counts. The W3C Web Annotation export "
           "(format=jsonld) converts them to code points, as that model requires.")


class HighlightInSchema(StrictSchema):
    field = fields.String(load_default="abstract", validate=validate.OneOf(HIGHLIGHT_FIELDS))
    exact = fields.String(required=True, validate=validate.Length(min=1, max=EXACT_MAX))
    prefix = fields.String(load_default="", validate=validate.Length(max=CONTEXT_MAX))
    suffix = fields.String(load_default="", validate=validate.Length(max=CONTEXT_MAX))
    start = fields.Integer(required=True, validate=validate.Range(min=0, max=OFFSET_MAX),
                           metadata={"description": OFFSETS})
    end = fields.Integer(required=True, validate=validate.Range(min=0, max=OFFSET_MAX),
                         metadata={"description": OFFSETS})
    section = fields.String(load_default="", validate=validate.Length(max=SECTION_MAX), metadata={
        "description": "for a body highlight: the heading of the section it falls under"})
    page = fields.Integer(load_default=None, allow_none=True, strict=True,
                          validate=validate.Range(min=1, max=PAGE_MAX), metadata={
                              "description": "for a PDF highlight (field pdf): its page, from 1; "
                                             "offsets are in that page's normalized text"})
    color = fields.String(load_default=palette.DEFAULT, validate=validate.OneOf(palette.NAMES))
    comment = fields.String(load_default="", validate=validate.Length(max=COMMENT_MAX))
    client_id = ClientId()

    @validates_schema
    def page_of_a_pdf(self, data, partial=None, **kwargs):
        """A PDF highlight names its page; a highlight in any other field has none."""
        if data.get("field") == "pdf" and data.get("page") is None:
            raise ValidationError("A PDF highlight needs its page.", field_name="page")
        if data.get("field") != "pdf" and data.get("page") is not None:
            raise ValidationError("Only a PDF highlight (field pdf) has a page.", field_name="page")

    @validates_schema
    def positions(self, data, partial=None, **kwargs):
        start, end = data.get("start"), data.get("end")
        if start is not None and end is not None and end <= start:
            raise ValidationError("end must be greater than start", field_name="end")
        if start is not None and end is not None and data.get("exact") is not None \
                and end - start != utf16_len(data["exact"]):
            raise ValidationError(
                "end - start must equal the length of exact in UTF-16 code units", field_name="end")


class HighlightPatchSchema(StrictSchema):
    color = fields.String(validate=validate.OneOf(palette.NAMES))
    comment = fields.String(validate=validate.Length(max=COMMENT_MAX))


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of a highlight's offsets."""
    return len(utf16_units(text))


def load(schema, data: dict, *, partial: bool = False) -> dict:
    """``data`` checked and normalized by ``schema``, or ``Invalid`` with marshmallow's messages."""
    try:
        return schema.load(data, partial=partial)
    except ValidationError as error:
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        raise Invalid(fields=messages) from None
