"""Which venue fields each BibTeX entry type takes (what an edit may set, and what the library
page's editor shows), and a reader's states of a paper.

An entry type not in the table (a file's own ``@dataset``, ``@software`` …) takes every venue
field, as does a paper with no type (derived: an arXiv preprint exports as ``@misc``).
"""

VENUE_FIELDS = ("journal", "booktitle", "volume", "number", "pages", "publisher", "edition",
                "editors")

FIELDS_BY_TYPE: dict[str, tuple[str, ...]] = {
    # BibLaTeX's @article takes an editor too (a special issue's guest editors).
    "article": ("journal", "volume", "number", "pages", "publisher", "editors"),
    "inproceedings": ("booktitle", "volume", "number", "pages", "publisher", "editors"),
    "incollection": ("booktitle", "volume", "number", "pages", "publisher", "edition", "editors"),
    "book": ("volume", "number", "publisher", "edition", "editors"),
    "inbook": ("booktitle", "volume", "number", "pages", "publisher", "edition", "editors"),
    "phdthesis": ("publisher",),
    "mastersthesis": ("publisher",),
    "techreport": ("number", "publisher"),
    "misc": ("publisher",),
    "online": ("publisher",),
    "unpublished": (),
}

READING_STATES = ("unread", "to_read", "reading", "read")


def venue_fields(entry_type: str | None) -> tuple[str, ...]:
    """The venue fields a paper of ``entry_type`` takes."""
    if not entry_type:
        return VENUE_FIELDS
    return FIELDS_BY_TYPE.get(entry_type.lower(), VENUE_FIELDS)


def fields_refused(entry_type: str | None, data: dict) -> dict[str, list[str]]:
    """The venue fields ``data`` sets (to a value) that a paper of ``entry_type`` does not take:
    ``{field: [why]}`` (empty: all fine)."""
    allowed = venue_fields(entry_type)
    return {name: [f"an @{entry_type} entry has no {name}; change the entry type or leave it empty"]
            for name in VENUE_FIELDS
            if name not in allowed and data.get(name) not in (None, "", [])}
