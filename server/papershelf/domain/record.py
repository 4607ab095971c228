"""The one shape of a paper as a record: what the API answers, the exports write and the
readers return. The store's records (``store.records``), the response schemas and the readers
all follow this order and these names; tests hold them to it. Also the provisional title of a
paper saved from its arXiv id alone (``provisional_title``, ``is_provisional_title``), and the
titles that only stand in for one (``is_stand_in_title``: a file's name, an identity).
"""

from __future__ import annotations

import copy
import re

from papershelf.domain import identifiers, identities

# A paper record's fields, in order, with what a record lacks by default (the store adds ``id``).
PAPER_RECORD = {
    "arxiv_id": None,
    "arxiv_version": None,
    "doi": None,
    "url": None,
    "title": "",
    "authors": [],
    "authors_more": 0,
    "abstract": "",
    "published": None,
    "published_precision": None,  # "year" or "month" when the source gave no more; None: a day
    "affiliations": [],
    "topics": [],
    "tags": [],
    "reading_state": "unread",  # unread | to_read | reading | read
    "starred": False,
    "primary_category": None,
    "categories": [],
    "journal_ref": None,
    "comments": None,
    # what a work other than an arXiv preprint needs: its BibTeX entry type and its venue
    "entry_type": None,  # article, inproceedings, book, … as a file gave it; None: derived
    "journal": None,
    "booktitle": None,
    "volume": None,
    "number": None,
    "pages": None,
    "publisher": None,
    "edition": None,
    "editors": [],
    # an imported entry's other fields, as the file wrote them (BibTeX), exported back
    "extra": {},
    # fields the file wrote in a form an export would not reproduce ({name: [as written, the
    # fingerprint of the values they were read as]}): written back verbatim while those stand
    "verbatim": {},
    "source_url": None,
    "pdf_url": None,
    "citation_key": None,
    "key_aliases": [],  # keys of papers merged into this one, exported as BibLaTeX ids
    "citation_key_pinned": False,
    "citation_key_fixed": False,
    "edited_fields": [],
    "enriched_fields": [],
    "enrichment": None,
    # a preprint's published version (null, or {entry_type, venue, booktitle | journal, year,
    # volume, number, pages, publisher, doi, dblp, source, evidence, checked_at}) and what the
    # exports cite: "published" (the version, when there is one) or "preprint"
    "published_version": None,
    "cite": "preprint",
    "created_at": None,
    "updated_at": None,
    "notes": [],
    "highlights": [],
}
NOTE_RECORD = ("id", "paper_id", "body", "created_at", "updated_at")
HIGHLIGHT_RECORD = ("id", "paper_id", "field", "section", "page", "exact", "prefix", "suffix",
                    "start", "end", "color", "comment", "created_at", "updated_at")

# What a bibliography entry (BibTeX, BibLaTeX: ``formats.bibtex_write``) is written from: the
# record's fields its writer reads, and the fields of each note and highlight it reads (the order
# of the notes and highlights, and the ``annote`` text). The exports read nothing else of the
# store for an entry (``store.records.entry_rows_by_id``); tests hold the writer to this list.
ENTRY_FIELDS = (
    "arxiv_id", "doi", "url", "title", "authors", "authors_more", "abstract", "published",
    "published_precision", "tags", "reading_state", "starred", "primary_category", "journal_ref",
    "entry_type", "journal", "booktitle", "volume", "number", "pages", "publisher", "edition",
    "editors", "extra", "verbatim", "citation_key", "key_aliases", "published_version", "cite",
    "notes", "highlights",
)
ENTRY_NOTE = ("id", "body", "created_at")
ENTRY_HIGHLIGHT = ("id", "field", "page", "exact", "start", "end", "comment")


def provisional_title(arxiv_id: str) -> str:
    """The title of a paper saved from its arXiv id alone, until arXiv answers with the real one."""
    return f"arXiv:{arxiv_id}"


def is_provisional_title(title: str | None, arxiv_id: str | None) -> bool:
    """Whether ``title`` only names the paper's arXiv id (``arXiv:2603.01234``, the bare id, any
    form of it): the title a paper has until arXiv's answer gives it its own. Earlier extensions
    sent the bare id as the title of a page that showed none."""
    return bool(arxiv_id and title) and identifiers.try_arxiv_id(title.strip()) == arxiv_id


# What tools and viewers write where a document's title should be: its file's name, a word
# processor's or a slide's placeholder (extension/lib/pdf.js namesAFile; tests/shared/titles.json).
_FILE_TITLE = re.compile(r"untitled|title|document\d*|microsoft word\b.*|slide \d+"
                         r"|.*\.(?:docx?|tex|dvi|pdf|ps|indd)", re.IGNORECASE | re.DOTALL)


def is_stand_in_title(title: str | None, arxiv_id: str | None = None) -> bool:
    """Whether ``title`` only stands in for the paper's title: none, the provisional
    ``arXiv:<id>``, a file's name (``3442188.3445922.pdf``, ``Microsoft Word - draft.docx``: what a
    PDF tab shows), or one of the paper's identities or addresses as the extension titles a
    paper it has no title for (``doi:10.1145/…``, ``openreview:…``, ``https://…``, a bare DOI or
    arXiv id). Such a title never replaces a real one."""
    text = (title or "").strip()
    if not text or is_provisional_title(text, arxiv_id) or _FILE_TITLE.fullmatch(text):
        return True
    return (identities.normalize_identity(text) is not None
            or identities.doi_identity(text) is not None
            or identifiers.try_arxiv_id(text) is not None
            or identities.url_identity(text) is not None)


def new_record(**fields) -> dict:
    """A record as readers return it: every field of the shape, defaults for what a file lacks
    (no ``id``; timestamps ``None`` when the file has none, for the store to fill in)."""
    unknown = set(fields) - set(PAPER_RECORD)
    if unknown:
        raise TypeError(f"unknown record fields: {sorted(unknown)}")
    record = copy.deepcopy(PAPER_RECORD)
    record.update(fields)
    return record
