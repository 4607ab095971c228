"""The rule that says whether a catalogue's record is the published version of a preprint.

A candidate is the same work when the catalogue links it to the preprint's arXiv id, or when
its title agrees with the preprint's after normalization (case, punctuation, TeX, accents, a
trailing dot, hyphens inside words) and the first authors' family names agree (or at least two
family names are shared); in both cases its year must be plausible: no earlier than the
preprint's year - 1 and no later than + 4. A record whose venue is a preprint server (arXiv,
CoRR, bioRxiv, …) is the preprint itself, never its version.

Same title with other authors, the same authors with another title, a title one word off: not
the same work. ``same_work`` answers a :class:`Verdict` whose ``reason`` says why, for the
reports of ``papershelf resolve`` and ``papershelf upgrade``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from papershelf.domain.citekey import ascii_fold
from papershelf.domain.latex import decode_latex
from papershelf.domain.names import last_name

YEARS_BEFORE = 1
YEARS_AFTER = 4

# Venues that are the preprint, not a version of it (DBLP names arXiv "CoRR").
_PREPRINT_VENUE = re.compile(
    r"^(corr|arxiv|biorxiv|medrxiv|chemrxiv|ssrn|research ?square|preprints?|techrxiv|"
    r"psyarxiv|osf preprints|eartharxiv)\b|\barxiv\b|\bcorr abs\b|"
    r"^computing research repository\b",
    re.IGNORECASE)
_INNER_HYPHEN = re.compile(r"(?<=\w)[-\u2010\u2011\u2012\u2013](?=\w)")
_DOLLAR = re.compile(r"\$([^$]*)\$")


@dataclass(frozen=True)
class Work:
    """What the rule looks at in a preprint or a candidate."""

    title: str
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    arxiv_id: str | None = None  # the arXiv id the catalogue links the record to


@dataclass(frozen=True)
class Verdict:
    same: bool
    reason: str
    shared: tuple[str, ...] = field(default=())

    def __bool__(self) -> bool:
        return self.same


def normalize_title(title: str | None) -> str:
    """A title as the rule compares it: TeX decoded, accents dropped, lower case, hyphens
    inside words removed (``Pre-training`` = ``Pretraining``), punctuation as spaces."""
    text = title or ""
    if "$" in text:
        text = _DOLLAR.sub(lambda m: m.group(1).replace("\\", " "), text)  # $\epsilon$: epsilon
    if "\\" in text or "{" in text:
        text = decode_latex(text)
    text = _INNER_HYPHEN.sub("", text)
    return ascii_fold(text)


def family_name(name: str) -> str:
    """A person's family name as the rule compares it (``Kaiming He`` → ``he``,
    ``He, Kaiming`` → ``he``, ``Ludwig van Beethoven`` → ``beethoven``)."""
    name = " ".join((name or "").split())
    if not name:
        return ""
    if "," in name:
        last = name.split(",", 1)[0]
    else:
        last = last_name(name) or name.split()[-1]
    words = ascii_fold(last).split()
    return words[-1] if words else ""


def is_preprint_venue(venue: str | None) -> bool:
    """Whether ``venue`` names a preprint server (the preprint itself, never its version)."""
    text = " ".join((venue or "").split())
    return bool(text) and bool(_PREPRINT_VENUE.search(text))


def _families(authors) -> list[str]:
    return [f for f in (family_name(a) for a in authors) if f]


def authors_agree(a, b) -> tuple[bool, tuple[str, ...]]:
    """First authors' family names agree, or at least two family names are shared."""
    fa, fb = _families(a), _families(b)
    if not fa or not fb:
        return False, ()
    shared = tuple(sorted(set(fa) & set(fb)))
    return (fa[0] == fb[0] or len(shared) >= 2), shared


def year_plausible(preprint_year: int | None, candidate_year: int | None) -> bool:
    if preprint_year is None or candidate_year is None:
        return True
    return preprint_year - YEARS_BEFORE <= candidate_year <= preprint_year + YEARS_AFTER


def same_work(preprint: Work, candidate: Work) -> Verdict:
    """Whether ``candidate`` is the published version of ``preprint`` (see the module's rule)."""
    if is_preprint_venue(candidate.venue):
        return Verdict(False, f"{candidate.venue!r} is a preprint server")
    if not year_plausible(preprint.year, candidate.year):
        return Verdict(False, f"year {candidate.year} is out of range for a preprint of "
                              f"{preprint.year}")
    if preprint.arxiv_id and candidate.arxiv_id and preprint.arxiv_id == candidate.arxiv_id:
        return Verdict(True, f"the catalogue links it to arXiv:{preprint.arxiv_id}")
    if candidate.arxiv_id and preprint.arxiv_id and candidate.arxiv_id != preprint.arxiv_id:
        return Verdict(False, f"the catalogue links it to another preprint "
                              f"(arXiv:{candidate.arxiv_id})")
    mine, theirs = normalize_title(preprint.title), normalize_title(candidate.title)
    if not mine or mine != theirs:
        return Verdict(False, "the titles differ")
    agree, shared = authors_agree(preprint.authors, candidate.authors)
    if not agree:
        return Verdict(False, "same title, other authors", shared)
    return Verdict(True, "same title and authors" + (f" ({', '.join(shared)})" if shared else ""),
                   shared)
