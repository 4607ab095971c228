"""The JSON backup: every field of every paper, with its notes and highlights, as the server holds
them, so that ``POST /api/import?format=json`` restores a library with nothing lost.

    {"format": "papershelf-backup", "version": 3, "papers": [<record>, …]}

Version 2 added what works other than arXiv preprints need (entry type, venue, date precision, an
entry's other fields); a version-1 backup reads as before, those fields empty. Version 3 added
what a person chose about a paper's published version, beside the record's fields
(``CHOICE_FIELDS``): ``published_rejected``, what the matches they rejected are known by, and
``cite_choice``, what they said to cite (``"published"``, ``"preprint"`` or null: nothing said;
the record's ``cite`` is what the exports cite, which is ``"preprint"`` whenever no version is
known, chosen or not). A version-1 or -2 backup reads without them.

Records are written with sorted keys, one per line, streamed. Reading drops the store's ``id``s
(the restoring store assigns its own) and keeps everything else: citation keys, timestamps, tags,
edited fields, enrichment state, notes and highlights.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from papershelf.domain.record import new_record

from . import FormatError

FORMAT = "papershelf-backup"
VERSION = 3
READS = (1, 2, 3)
CHOICE_FIELDS = ("published_rejected", "cite_choice")
_HEAD = f'{{"format": "{FORMAT}", "version": {VERSION}, "papers": ['


def write_backup(records: Iterable[dict], **_options) -> Iterator[str]:
    """The backup, one chunk per paper. Export options (abstract, notes field…) do not apply: a
    backup is always whole."""
    yield _HEAD
    sep = "\n"
    for record in records:
        yield sep + json.dumps(record, ensure_ascii=False, sort_keys=True)
        sep = ",\n"
    yield "\n]}\n"


_LIST_FIELDS = ("authors", "affiliations", "topics", "tags", "categories", "edited_fields",
                "enriched_fields", "editors")
_DICT_FIELDS = ("extra", "verbatim")
_CHILD_FIELDS = {
    "notes": ("body",),
    "highlights": ("field", "exact", "start", "end"),
}


def _choices(fields: dict, index: int) -> dict:
    """The published-version choices of a version-3 paper, taken out of ``fields``."""
    choices = {name: fields.pop(name) for name in CHOICE_FIELDS if name in fields}
    rejected = choices.get("published_rejected", [])
    if not isinstance(rejected, list) or not all(isinstance(v, str) for v in rejected):
        raise FormatError(f"paper {index}: published_rejected must be a list of strings")
    if choices.get("cite_choice") not in (None, "published", "preprint"):
        raise FormatError(f'paper {index}: cite_choice must be "published", "preprint" or null')
    return choices


def _paper(item: dict, index: int) -> dict:
    fields = {k: v for k, v in item.items() if k != "id"}
    choices = _choices(fields, index)
    known = new_record()
    unknown = set(fields) - set(known)
    if unknown:
        raise FormatError(f"paper {index}: unknown fields {', '.join(sorted(unknown))}")
    for name in _LIST_FIELDS:
        value = fields.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise FormatError(f"paper {index}: {name} must be a list of strings")
    for name in _DICT_FIELDS:
        value = fields.get(name, {})
        if not isinstance(value, dict):
            raise FormatError(f"paper {index}: {name} must be an object")
    if not isinstance(fields.get("extra", {}), dict) or not all(
            isinstance(v, str) for v in fields.get("extra", {}).values()):
        raise FormatError(f"paper {index}: extra must map field names to text")
    for name, required in _CHILD_FIELDS.items():
        children = fields.get(name, [])
        if not isinstance(children, list) or not all(isinstance(c, dict) for c in children):
            raise FormatError(f"paper {index}: {name} must be a list of objects")
        for child in children:
            missing = [f for f in required if f not in child]
            if missing:
                raise FormatError(f"paper {index}: a {name[:-1]} lacks {', '.join(missing)}")
        fields[name] = [{k: v for k, v in c.items() if k != "id"} for c in children]
    return {**new_record(**fields), **choices}


def read_backup(text: str) -> tuple[list[dict], list[dict]]:
    """Records from a backup, and the papers skipped (``{"index", "reason"}``).

    Raises ``FormatError`` when the text is not a papershelf backup.
    """
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise FormatError(f"not a JSON backup: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FormatError(f'not a papershelf backup: expected {{"format": "{FORMAT}", …}}')
    if data.get("version") not in READS:
        raise FormatError(f"unsupported backup version {data.get('version')!r} "
                          f"(this reads {', '.join(map(str, READS))})")
    papers = data.get("papers")
    if not isinstance(papers, list):
        raise FormatError('not a papershelf backup: "papers" must be a list')
    records, skipped = [], []
    for index, item in enumerate(papers):
        if not isinstance(item, dict):
            raise FormatError(f"paper {index} is not an object")
        title = item.get("title")
        if not isinstance(title, str) or not title.strip():
            skipped.append({"index": index, "reason": "no title"})
            continue
        records.append(_paper(item, index))
    return records, skipped
