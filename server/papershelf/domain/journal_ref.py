"""arXiv's journal reference, free text written by the authors, read into its parts.

The shapes arXiv's references take most (each seen in arXiv's own metadata):

- ``Journal Volume(Issue), Pages (Year)``: ``Phys. Rev. Lett. 116, 061102 (2016)``,
  ``J. Phys. Soc. Jpn. 66, 204 (1997).``;
- ``Journal Volume (Year) Pages``: ``Nucl.Phys. B550 (1999) 213-236``;
- ``Journal+Volume:Pages,Year``: ``Phys.Rev.D76:013009,2007`` (SPIRES' compact form);
- ``Journal Volume (Issue), Year``: ``Software: Practice and Experience 51 (8), 2021``;
- a venue and its year, maybe its pages: ``NeurIPS 2017``,
  ``Proceedings of the ACM Web Conference 2026, pp. 1021-1032``.

``read_journal_ref`` answers a :class:`JournalRef`; ``full`` says the reference named a
journal's volume and pages (or issue) and its year, all of it read: only then may its parts
complete a catalogue's record. Anything else gives the name alone (the text before its first
number), which is still a venue to search for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from papershelf.domain.citekey import ascii_fold

_PAGES = r"(?:pp?\.\s*)?(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)"
_YEAR = r"(?P<year>(?:1[89]|20)\d\d)"
_ISSUE = r"(?:\s*\((?P<issue>[^)]+)\))?"
_SHAPES = [
    # Software: Practice and Experience 51 (8), 2021 (before the next: 2021 is its year, not its pages)
    re.compile(r"^(?P<journal>.*?[^\d\s,])\s+(?P<volume>\d+)\s*\((?P<issue>[^)]+)\)\s*,\s*"
               + _YEAR + r"\s*\.?$"),
    # Phys. Rev. Lett. 120(3), 031101 (2018) / Nature 596, 583–589 (2021)
    re.compile(r"^(?P<journal>.*?[^\d\s,])\s+(?P<volume>[A-Z]?\d+)" + _ISSUE + r"\s*[,:]\s*"
               + _PAGES + r"\s*(?:[,(]\s*" + _YEAR + r"\s*\)?)?\s*\.?$"),
    # Nucl.Phys. B550 (1999) 213-236
    re.compile(r"^(?P<journal>.*?[^\d\s,])\s+(?P<volume>[A-Z]?\d+)\s*\(" + _YEAR
               + r"\)\s*,?\s*" + _PAGES + r"\s*\.?$"),
    # Phys.Rev.D76:013009,2007
    re.compile(r"^(?P<journal>[A-Za-z][A-Za-z.\s]*?[A-Za-z.])\s*(?P<volume>\d+)\s*:\s*"
               + _PAGES + r"\s*,\s*" + _YEAR + r"\s*\.?$"),
]
# a venue and its year: "NeurIPS 2017", "Proc. ACL 2020, pp. 1-10", "ICLR 2015 (oral)"
_VENUE_YEAR = re.compile(r"^(?P<journal>.*?[A-Za-z)\]'])[\s,]+" + _YEAR
                         + r"(?:\s*,\s*" + _PAGES + r")?(?:\s*\([^)]*\))?\s*\.?$")
_NAME = re.compile(r"^(?P<journal>.*?[A-Za-z.)\]])\s*(?:\d|vol\b|pp?\.|\(\d)", re.IGNORECASE)
_ANY_YEAR = re.compile(r"(?<!\d)" + _YEAR + r"(?!\d)")


@dataclass(frozen=True)
class JournalRef:
    journal: str | None = None  # the journal's or the venue's name, as written
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    year: int | None = None
    full: bool = False  # a journal's volume, pages (or issue) and year, all read

    def parts(self) -> dict:
        """``{"journal", "volume", "issue", "pages"}``: what is known of them."""
        return {k: v for k, v in (("journal", self.journal), ("volume", self.volume),
                                  ("issue", self.issue), ("pages", self.pages)) if v}


def read_journal_ref(ref: str | None) -> JournalRef:
    """The parts of arXiv's journal reference ``ref`` (see the module)."""
    ref = " ".join((ref or "").split())
    if not ref:
        return JournalRef()
    for shape in _SHAPES:
        m = shape.match(ref)
        if m is None:
            continue
        volume = m["volume"]
        if volume.isdigit() and len(volume) == 4 and 1900 <= int(volume) <= 2100 and not m["year"]:
            continue  # "Proc. 2019, 12": a year, not a volume
        year = int(m["year"]) if m["year"] else None
        journal = m["journal"].rstrip(" ,;:")
        if not volume.isdigit():  # "B550": the series is the journal's (Nucl. Phys. B, 550)
            journal, volume = f"{journal} {volume[0]}", volume[1:]
        return JournalRef(journal, volume, m.groupdict().get("issue"),
                          m.groupdict().get("pages"), year, full=year is not None)
    m = _VENUE_YEAR.match(ref)
    if m:
        return JournalRef(m["journal"].rstrip(" ,;:"), pages=m["pages"],
                          year=int(m["year"]))
    m = _NAME.match(ref)
    year = _ANY_YEAR.search(ref)
    return JournalRef((m["journal"] if m else ref).rstrip(" ,;:"),
                      year=int(year["year"]) if year else None)


_SKIPPED = {"of", "the", "and", "on", "in", "for", "a", "an", "proc", "proceedings"}


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", ascii_fold(name)) if w and w not in _SKIPPED]


def names_agree(abbreviated: str | None, name: str | None) -> bool:
    """Whether ``abbreviated`` (``Phys. Rev. D``, ``J. Chem. Phys.``) names the journal
    ``name`` (``Physical Review D``): each of its words begins the next of the name's, in
    order, and none of the name's is left over."""
    short, full = _words(abbreviated or ""), _words(name or "")
    if not short or len(short) != len(full):
        return False
    return all(f.startswith(s) for s, f in zip(short, full, strict=True))
