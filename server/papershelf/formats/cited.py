"""The version of a paper an export cites: the published version when one is known and its
user has not chosen the preprint, else the paper as it is.

``cited(record, version, venue)`` answers the record to write: the entry type, the venue
(``booktitle`` or ``journal``), volume, number, pages, publisher, DOI and year of the published
version in place of the preprint's, everything else (the citation key, ``arxiv_id`` — so
``eprint``, ``archivePrefix`` and ``primaryClass`` are kept —, notes, tags) as it was.
``version="preprint"`` cites every paper as its preprint; ``venue="short"`` writes the main
venues' short names ("NeurIPS 2017", ``domain.venues``). The BibTeX, BibLaTeX, CSL-JSON and RIS
writers call ``cited_records`` first.
"""

from __future__ import annotations

from collections.abc import Iterable

from papershelf.domain.venues import short_venue

VERSIONS = ("published", "preprint")
VENUE_NAMES = ("full", "short")
_VENUE_FIELDS = ("journal", "booktitle", "volume", "number", "pages", "publisher")


def _short(record: dict) -> dict:
    year = (record.get("published") or "")[:4] or None
    for name in ("booktitle", "journal"):
        short = short_venue(record.get(name), year) if record.get(name) else None
        if short:
            record = {**record, name: short}
    return record


def cited(record: dict, version: str = "published", venue: str = "full") -> dict:
    """The record as an export cites it (a new dict when anything changes)."""
    found = record.get("published_version")
    if found and version == "published" and record.get("cite") != "preprint":
        record = dict(record)
        record["entry_type"] = found.get("entry_type") or "inproceedings"
        for name in _VENUE_FIELDS:
            record[name] = found.get(name) or None
        if found.get("doi"):
            record["doi"] = found["doi"]
        if found.get("year"):
            record["published"] = f"{int(found['year']):04d}-01-01"
            record["published_precision"] = "year"
    if venue == "short" and (record.get("booktitle") or record.get("journal")):
        record = _short(record)
    return record


def cited_records(records: Iterable[dict], version: str = "published", venue: str = "full",
                  **_options) -> Iterable[dict]:
    """``records`` as an export cites them (see ``cited``); a writer's other options are
    ignored."""
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {', '.join(VERSIONS)}")
    if venue not in VENUE_NAMES:
        raise ValueError(f"venue must be one of {', '.join(VENUE_NAMES)}")
    return (cited(r, version, venue) for r in records)
