"""How a later save of a paper merges into the one already stored, and when two are one work.

A page save fills gaps and refreshes page data, but never touches what the user edited, never
replaces what arXiv's API supplied with the page's shorter version, never erases a field the
page lacks, and never changes a paper's identity (arXiv id, DOI, URL: the user can edit those).
A title only replaces a real one when it is one itself and the save is not from the PDF alone
(``title_replaces``): a PDF tab's title is its file's name or what the PDF's tool wrote.

Two entries of a file are the same work only when they share an arXiv id, or a DOI or URL *and*
compatible titles (``titles_compatible``): twenty chapters of one book share its URL (often its
DOI too) and stay twenty papers.
"""

import re
import unicodedata
from difflib import SequenceMatcher

from papershelf.domain.identifiers import normalize_url
from papershelf.domain.record import is_stand_in_title

# Fields a page save can fill.
PAGE_FIELDS = (
    "arxiv_id", "arxiv_version", "doi", "url", "title", "authors", "authors_more", "abstract",
    "published", "published_precision", "affiliations", "topics", "primary_category",
    "categories", "journal_ref", "comments", "entry_type", "journal", "booktitle", "volume",
    "number", "pages", "publisher", "edition", "editors", "extra", "source_url", "pdf_url",
)
# What makes two saves the same paper, in the order they are matched.
IDENTITY_FIELDS = ("arxiv_id", "doi", "url")


def page_save_changes(current: dict, incoming: dict, protected: set[str]) -> dict:
    """The fields to change, {name: new value}, when ``incoming`` (a page's save) meets the
    stored ``current`` values; ``protected``: fields the user edited or arXiv supplied."""
    changes = {}
    for key in PAGE_FIELDS:
        if key not in incoming or key in protected or key == "published_precision":
            continue
        new = incoming[key]
        old = current.get(key)
        if key == "topics":
            old = old or []
            new = old + [t for t in new if t.casefold() not in {o.casefold() for o in old}]
        elif key == "extra":
            new = {**(new or {}), **(old or {})}  # more fields, never other values
        elif key == "arxiv_version":
            new = max(old or 0, new or 0) or None
        elif new in (None, "", []):
            continue  # a page that lacks a field does not erase it
        elif key == "authors_more" and "authors" in protected:
            continue
        elif key == "title" and not title_replaces(old, new, current, incoming):
            continue
        if key in IDENTITY_FIELDS and old and new != old:
            continue  # a paper's identity is set once; the user can PATCH it
        if new != old:
            changes[key] = new
    if "published" in changes:  # a new date comes with its own precision
        precision = incoming.get("published_precision")
        if precision != current.get("published_precision"):
            changes["published_precision"] = precision
    return changes


def saved_from_pdf(incoming: dict) -> bool:
    """Whether a save comes from the paper's PDF itself (a PDF tab, the reader): its address,
    or the page it was saved from, is the PDF it links."""
    pdf = _address(incoming.get("pdf_url"))
    return pdf is not None and pdf in (_address(incoming.get("url")),
                                       _address(incoming.get("source_url")))


def _address(url: str | None) -> str | None:
    try:
        return normalize_url(url) if url else None
    except ValueError:
        return None


def title_replaces(old: str | None, new: str | None, current: dict, incoming: dict) -> bool:
    """Whether a page save's title ``new`` replaces the stored ``old``: a title that only stands
    in for one (``record.is_stand_in_title``) never does; a real one always replaces a stand-in,
    and replaces a real one unless the save is from the PDF alone (``saved_from_pdf``), whose
    title is the viewer's or the PDF tool's, not the landing page's or arXiv's."""
    arxiv_id = current.get("arxiv_id") or incoming.get("arxiv_id")
    if is_stand_in_title(new, arxiv_id):
        return not old
    return is_stand_in_title(old, arxiv_id) or not saved_from_pdf(incoming)


_NOT_WORD = re.compile(r"[\W_]+")
_NUMBER = re.compile(r"^(?:\d+|[ivxlcdm]+)$")
_LATEX_MARKUP = re.compile(r"\\[A-Za-z]+|[{}$]")


def title_words(title: str | None) -> str:
    """A title reduced to what makes it the same: lower-case words without accents, markup or
    punctuation."""
    text = unicodedata.normalize("NFKD", _LATEX_MARKUP.sub(" ", title or ""))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(_NOT_WORD.sub(" ", text.casefold()).split())


def titles_compatible(a: str | None, b: str | None) -> bool:
    """Whether two titles can name one work: equal once reduced (``title_words``), one the other
    with a subtitle added, or nearly equal (a typo, a changed word in a long title)."""
    a, b = title_words(a), title_words(b)
    if not a or not b:
        return True  # a missing title says nothing against it
    if a == b:
        return True
    if _numbers(a) != _numbers(b):
        return False  # "Part I" and "Part II", "Volume 1" and "Volume 2"
    short, long_ = sorted((a, b), key=len)
    if long_.startswith(short + " ") and len(short.split()) >= 3:
        return True  # "Attention is all you need" and "… : the Transformer"
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.9


def _numbers(words: str) -> list[str]:
    return sorted(w for w in words.split() if _NUMBER.match(w))
