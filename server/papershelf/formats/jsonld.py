"""W3C Web Annotation (JSON-LD): highlights and notes as one ``AnnotationPage``.

A highlight is an ``Annotation`` whose target is the paper, narrowed to the field it was made in
(a ``FragmentSelector`` naming ``title`` or ``abstract``) and refined by a ``TextQuoteSelector``
and a ``TextPositionSelector`` (UTF-16 offsets in the field's normalized text); its comment, if
any, is a ``TextualBody``. A note is a ``commenting`` annotation on the whole paper with a
Markdown body.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from papershelf.domain import palette

from . import highlights_in_order, notes_in_order, paper_url

CONTEXT = "http://www.w3.org/ns/anno.jsonld"
ID_BASE = "urn:papershelf:"
STYLESHEET = {"type": "CssStylesheet",
              "value": " ".join(f".{name} {{ background-color: {background}; }}"
                                for name, background in palette.BACKGROUNDS.items())}


def _source(record: dict) -> str:
    return paper_url(record) or f"{ID_BASE}paper:{record.get('id')}"


def _highlight(record: dict, h: dict) -> dict:
    selector = {
        "type": "FragmentSelector",
        "value": h.get("field") or "abstract",
        "refinedBy": [
            {"type": "TextQuoteSelector", "exact": h.get("exact") or "",
             "prefix": h.get("prefix") or "", "suffix": h.get("suffix") or ""},
            {"type": "TextPositionSelector", "start": h.get("start"), "end": h.get("end")},
        ],
    }
    annotation = {
        "id": f"{ID_BASE}highlight:{h.get('id')}",
        "type": "Annotation",
        "motivation": "commenting" if h.get("comment") else "highlighting",
        "created": h.get("created_at"),
        "modified": h.get("updated_at"),
        "target": {"source": _source(record), "selector": selector,
                   "styleClass": h.get("color") or palette.DEFAULT},
        "stylesheet": STYLESHEET,
    }
    if h.get("comment"):
        annotation["body"] = {"type": "TextualBody", "value": h["comment"],
                              "format": "text/plain", "purpose": "commenting"}
    return annotation


def _note(record: dict, n: dict) -> dict:
    return {
        "id": f"{ID_BASE}note:{n.get('id')}",
        "type": "Annotation",
        "motivation": "commenting",
        "created": n.get("created_at"),
        "modified": n.get("updated_at"),
        "body": {"type": "TextualBody", "value": n.get("body") or "",
                 "format": "text/markdown", "purpose": "commenting"},
        "target": {"source": _source(record), "dc:title": record.get("title") or ""},
    }


def annotations(record: dict) -> list[dict]:
    return ([_highlight(record, h) for h in highlights_in_order(record)]
            + [_note(record, n) for n in notes_in_order(record)])


def write_jsonld(records: Iterable[dict], **_options) -> Iterator[str]:
    """An ``AnnotationPage`` of every highlight and note of ``records``, one chunk per paper."""
    yield ('{"@context": [' + json.dumps(CONTEXT) + ', {"dc": "http://purl.org/dc/terms/"}], '
           '"type": "AnnotationPage", "items": [')
    sep = "\n"
    for record in records:
        for annotation in annotations(record):
            yield sep + json.dumps(annotation, ensure_ascii=False)
            sep = ",\n"
    yield "\n]}\n"
