"""Exports and imports: ``GET /api/export`` streams a file, ``POST /api/import`` reads one."""

from datetime import UTC, datetime

from flask import Blueprint, Response, current_app, request, stream_with_context
from marshmallow import ValidationError, fields, pre_load, validate

from papershelf.formats import EXPORT_FORMATS, IMPORT_FORMATS, export_filename
from papershelf.formats.cited import VENUE_NAMES, VERSIONS
from papershelf.http import current_user, doc, query_args
from papershelf.http.errors import ValidationFailed
from papershelf.http.schemas import QUERY_MAX, TAG_LEN, StrictSchema
from papershelf.services import groups, settings, transfer
from papershelf.settings import enrichment_enabled

bp = Blueprint("api_transfer", __name__, url_prefix="/api")


class _Ids(fields.Field):
    """``ids=1,2,3`` (or ``ids`` repeated): paper ids."""

    def _deserialize(self, value, attr, data, **kwargs):
        values = value if isinstance(value, list) else [value]
        try:
            ids = [int(part) for v in values for part in str(v).split(",") if part.strip()]
        except ValueError as e:
            raise ValidationError("a comma-separated list of paper ids") from e
        if len(ids) > 10_000:
            raise ValidationError("at most 10,000 ids")
        if any(not 0 < i < 2**31 for i in ids):
            raise ValidationError("paper ids are positive integers")
        return ids


class ExportQuerySchema(StrictSchema):
    format = fields.String(load_default="bibtex", validate=validate.OneOf(list(EXPORT_FORMATS)))
    tag = fields.String(validate=validate.Length(max=TAG_LEN))
    topic = fields.String(validate=validate.Length(max=TAG_LEN))
    ids = _Ids(metadata={"description": "comma-separated paper ids"})
    q = fields.String(validate=validate.Length(max=QUERY_MAX))
    group = fields.Integer(validate=validate.Range(min=1, max=2**63 - 1),
                           metadata={"description": "export a group's shelf (with tag, topic, q)"})
    abstract = fields.Boolean(load_default=True, truthy={"1", "true", "yes", "on"},
                              falsy={"0", "false", "no", "off"})
    notes_field = fields.String(load_default="annote", validate=validate.OneOf(["annote", "note"]))
    encoding = fields.String(load_default="latex", validate=validate.OneOf(["latex", "utf8"]))
    version = fields.String(load_default="published", validate=validate.OneOf(VERSIONS), metadata={
        "description": "published (default): a preprint with a published version is cited as "
                       "that version (@inproceedings/@article, the venue's year, pages, DOI; the "
                       "same key; eprint kept), unless its cite is preprint; preprint: every "
                       "paper as its preprint"})
    venue = fields.String(load_default="full", validate=validate.OneOf(VENUE_NAMES), metadata={
        "description": "full (default): the venue's full name; short: the main venues' short "
                       "names (\"NeurIPS 2017\")"})
    with_state = fields.Boolean(load_default=False, truthy={"1", "true", "yes", "on"},
                                falsy={"0", "false", "no", "off"}, metadata={
        "description": "BibTeX: the reading state and star as keywords (state:read, starred)"})

    @pre_load
    def blank_is_absent(self, data, **kwargs):
        return {k: v for k, v in data.items() if v != ""}


class ImportQuerySchema(StrictSchema):
    format = fields.String(validate=validate.OneOf(list(IMPORT_FORMATS)),
                           metadata={"description": "default: guessed from the file"})


class ImportErrorSchema(StrictSchema):
    index = fields.Integer()
    key = fields.String()
    reason = fields.String()
    imported = fields.Boolean(metadata={
        "description": "true: the entry was imported, without what this says (else: skipped)"})
    fields = fields.Dict()


class ImportResultSchema(StrictSchema):
    created = fields.Integer()
    updated = fields.Integer()
    unchanged = fields.Integer(metadata={
        "description": "entries already in the library as the file has them"})
    skipped = fields.Integer()
    errors = fields.List(fields.Nested(ImportErrorSchema))


EXPORT_QUERY = ExportQuerySchema()
IMPORT_QUERY = ImportQuerySchema()
_FILE_RESPONSE = {media.split(";")[0]: {"schema": {"type": "string"}}
                  for media, _ in EXPORT_FORMATS.values()}


@bp.get("/export")
@doc(summary="Export papers with their notes and highlights (BibTeX by default), as a file",
     query=ExportQuerySchema, responses={200: _FILE_RESPONSE})
def export():
    args = query_args(EXPORT_QUERY)
    for name, value in settings.export_options(current_user()).items():
        if name in args and name not in request.args:  # the user's default where the query is silent
            args[name] = value
    fmt = args.pop("format")
    tag = args.get("tag")
    group = args.pop("group", None)
    if group is not None:
        if args.pop("ids", None) is not None:
            raise ValidationFailed(fields={"ids": ["a group's export takes no ids"]})
        # 404 for a non-member
        chunks = transfer.in_chunks(groups.export_chunks(current_user(), group, fmt, **args))
    else:
        chunks = transfer.export_chunks(current_user(), fmt, **args)
    filename = export_filename(fmt, tag, datetime.now(UTC).date().isoformat())
    return Response(
        stream_with_context(chunk.encode("utf-8") for chunk in chunks),
        content_type=EXPORT_FORMATS[fmt][0],
        headers={"Content-Disposition": f'attachment; filename="{filename}"',
                 "Cache-Control": "no-store"},
    )


def _uploaded_bytes() -> bytes:
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("file")
        if upload is None:
            raise ValidationFailed("send the file as the multipart field 'file'",
                                   fields={"file": ["Missing data for required field."]})
        return upload.read()
    return request.get_data(cache=False)  # over IMPORT_MAX_BYTES: 413 from werkzeug


@bp.post("/import")
@doc(summary="Import BibTeX, CSL-JSON or a papershelf backup (raw body or multipart 'file')",
     query=ImportQuerySchema, responses={200: ImportResultSchema})
def import_():
    args = query_args(IMPORT_QUERY)
    data = _uploaded_bytes()
    if not data.strip():
        raise ValidationFailed("the file is empty", fields={"file": ["the file is empty"]})
    enrich = enrichment_enabled(current_app.config)
    report = transfer.import_file(current_user(), data, args.get("format"), enrich=enrich)
    worker = current_app.extensions.get("papershelf_enricher")
    if enrich and report["created"] and worker is not None:
        worker.wake()
    return report
