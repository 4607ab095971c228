"""W3C Web Annotation (JSON-LD): highlights and notes as one ``AnnotationPage``.

A highlight is an ``Annotation`` whose target is the paper, narrowed to the field it was made in
(a ``FragmentSelector`` naming ``title`` or ``abstract``; for a PDF highlight, one that conforms
to RFC 3778 naming its page, ``page=N``) and refined by a ``TextQuoteSelector`` and a
``TextPositionSelector`` (where the record holds the field's text); its comment, if any, is a
``TextualBody``. A note is a
``commenting`` annotation on the whole paper with a Markdown body.

The position selector counts code points in the field's normalized text, as the Web Annotation
model defines it; papershelf stores (and its API answers) UTF-16 offsets, the unit of the
extension's JavaScript, so each is converted here (an emoji counts 2 in the API, 1 here). A
highlight whose offsets do not fall on characters of the field as it is now gets the quote
selector alone. The page's ``id`` is derived from its content, so the same store gives the same
bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator

from papershelf.domain import palette
from papershelf.domain.anchoring import code_point_index, normalize_text

from . import highlights_in_order, notes_in_order, paper_url

CONTEXT = "http://www.w3.org/ns/anno.jsonld"
ID_BASE = "urn:papershelf:"
PDF_FRAGMENT = "http://tools.ietf.org/rfc/rfc3778"  # the PDF fragment identifiers (page=N)
STYLESHEET = {"type": "CssStylesheet",
              "value": " ".join(f".{name} {{ background-color: {background}; }}"
                                for name, background in palette.BACKGROUNDS.items())}


def _source(record: dict) -> str:
    return paper_url(record) or f"{ID_BASE}paper:{record.get('id')}"


def _position(record: dict, h: dict) -> dict | None:
    """The highlight's TextPositionSelector, its UTF-16 offsets turned into code points."""
    text = record.get(h.get("field") or "abstract")
    start, end = h.get("start"), h.get("end")
    if not isinstance(text, str) or not isinstance(start, int) or not isinstance(end, int):
        return None
    text = normalize_text(text)
    start, end = code_point_index(text, start), code_point_index(text, end)
    if start is None or end is None:
        return None
    return {"type": "TextPositionSelector", "start": start, "end": end}


def _highlight(record: dict, h: dict) -> dict:
    refined = [{"type": "TextQuoteSelector", "exact": h.get("exact") or "",
                "prefix": h.get("prefix") or "", "suffix": h.get("suffix") or ""}]
    position = _position(record, h)
    if position:
        refined.append(position)
    if h.get("field") == "pdf" and isinstance(h.get("page"), int):
        # A page of the PDF, as RFC 3778 names it (#page=N), then the quote on that page.
        selector = {"type": "FragmentSelector", "conformsTo": PDF_FRAGMENT,
                    "value": f"page={h['page']}", "refinedBy": refined}
    else:
        selector = {"type": "FragmentSelector", "value": h.get("field") or "abstract",
                    "refinedBy": refined}
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
    """An ``AnnotationPage`` of every highlight and note of ``records``, one chunk per paper;
    its ``id`` (a digest of the items) comes last, once the items are written."""
    yield ('{"@context": [' + json.dumps(CONTEXT) + ', {"dc": "http://purl.org/dc/terms/"}], '
           '"type": "AnnotationPage", "items": [')
    sep = "\n"
    digest = hashlib.sha256()
    for record in records:
        for annotation in annotations(record):
            chunk = json.dumps(annotation, ensure_ascii=False)
            digest.update(chunk.encode("utf-8", "surrogatepass"))
            yield sep + chunk
            sep = ",\n"
    yield f'\n], "id": "{ID_BASE}annotations:{digest.hexdigest()[:32]}"}}\n'

