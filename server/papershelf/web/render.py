"""Turning stored user text into safe HTML for the library page.

Pure functions, no Flask: Markdown notes (markdown-it-py, then nh3 with http(s) links only),
highlights painted into a field's text where papershelf.domain.anchoring places them (the rule the
extension follows too), search words marked. Every piece of user text that reaches the page passes
through ``markupsafe.escape`` or nh3 here or through Jinja's autoescaping.
"""

import re
from dataclasses import dataclass, field
from html import unescape

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from papershelf.domain.anchoring import anchor, code_point_index, normalize_text

# ---- Markdown ------------------------------------------------------------------------------

_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
_md.enable(["table", "strikethrough"])
_md.disable(["image"])  # no remote images in notes: they would call out from the page

NOTE_TAGS = {
    "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li",
    "a", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
}
NOTE_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}


def render_markdown(source: str) -> Markup:
    """A note's Markdown as sanitized HTML: raw HTML is shown as text, links are http(s) only
    (relative, ``javascript:``, ``data:`` and the like lose their ``href``), no images."""
    html = _md.render(source or "")
    clean = nh3.clean(
        html,
        tags=NOTE_TAGS,
        clean_content_tags={"script", "style"},
        attributes=NOTE_ATTRIBUTES,
        url_schemes={"http", "https"},
        url_relative="deny",
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
    return Markup(clean)


def markdown_text(source: str) -> str:
    """A note's words without Markdown syntax (for search excerpts): rendered, then stripped."""
    html = _md.render(source or "")
    return unescape(nh3.clean(html, tags=set(), clean_content_tags={"script", "style"}))


def safe_href(url: str | None) -> str | None:
    """A stored URL fit for an ``href``: absolute http(s) only, else None."""
    if not url:
        return None
    text = url.strip()
    if re.match(r"^https?://[^\s/?#]+", text, re.IGNORECASE) and not re.search(r"[\x00-\x20]", text):
        return text
    return None


# ---- highlights ----------------------------------------------------------------------------


# The text highlights are anchored in (NFC, whitespace folded, trimmed); the views normalize with it.
normalized = normalize_text


def _span(text: str, h: dict) -> tuple[int, int] | None:
    """Where highlight ``h`` sits in ``text``, as indexes into the Python string, or None (orphaned)."""
    found = anchor(text, h)
    if found is None:
        return None
    start, end = code_point_index(text, found.start), code_point_index(text, found.end)
    return None if start is None or end is None else (start, end)


@dataclass
class Segment:
    text: str
    highlights: list = field(default_factory=list)  # covering highlights, most recent last

    @property
    def top(self):
        return self.highlights[-1] if self.highlights else None


@dataclass
class Painted:
    segments: list
    placed: list  # highlights painted, in text order
    orphaned: list  # highlights whose quote is no longer in the text


def paint(text: str, highlights: list[dict]) -> Painted:
    """Split ``text`` (already normalized) at highlight boundaries. Overlapping highlights split
    into pieces; each piece knows every highlight over it and shows the most recent one's colour."""
    anchored, orphaned = [], []
    for h in highlights:
        span = _span(text, h)
        if span is None:
            orphaned.append(h)
        else:
            anchored.append((span, h))
    anchored.sort(key=lambda item: (item[0][0], item[0][1], item[1].get("id", 0)))
    cuts = sorted({0, len(text)} | {s for (s, _), _ in anchored} | {e for (_, e), _ in anchored})
    segments = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        if a == b:
            continue
        over = [h for (s, e), h in anchored if s <= a and b <= e]
        over.sort(key=lambda h: h.get("id", 0))
        segments.append(Segment(text[a:b], over))
    if not segments and text:
        segments = [Segment(text)]
    return Painted(segments, [h for _, h in anchored], orphaned)


# ---- search words (as services.search.terms finds them) --------------------------------------


def _term_pattern(terms: list[str]):
    if not terms:
        return None
    alternatives = "|".join(re.escape(t) for t in sorted(set(terms), key=len, reverse=True))
    return re.compile(r"(?<!\w)(?:" + alternatives + r")\w*", re.IGNORECASE | re.UNICODE)


def mark_terms(text: str | None, terms: list[str]) -> Markup:
    """``text`` escaped, with every word starting with a search term wrapped in ``<mark>``."""
    text = text or ""
    pattern = _term_pattern(terms)
    if pattern is None:
        return escape(text)
    out, last = [], 0
    for m in pattern.finditer(text):
        out.append(escape(text[last:m.start()]))
        out.append(Markup('<mark class="match">') + escape(m.group(0)) + Markup("</mark>"))
        last = m.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


def snippet(text: str | None, terms: list[str], width: int = 90) -> str | None:
    """A short excerpt of ``text`` around its first search match (plain text), or None."""
    pattern = _term_pattern(terms)
    if pattern is None or not text:
        return None
    flat = " ".join(text.split())
    m = pattern.search(flat)
    if m is None:
        return None
    start = max(0, m.start() - width)
    end = min(len(flat), m.end() + width)
    if start > 0:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < m.start() else start
    if end < len(flat):
        space = flat.rfind(" ", m.end(), end)
        end = space if space > m.end() else end
    return ("…" if start > 0 else "") + flat[start:end] + ("…" if end < len(flat) else "")
