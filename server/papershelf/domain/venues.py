"""The main venues' short names, for exports with ``venue=short`` ("NeurIPS 2017").

``VENUES`` is one table: each venue's short name, whether it is a conference or a journal, and
the patterns its full names match as catalogues write them (DBLP's booktitles and stream names,
Crossref's container titles, Semantic Scholar's venue names). ``short_venue`` answers the short
form of a venue's name, with the year for a conference, or None for a venue not in the table.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Venue(NamedTuple):
    short: str
    kind: str  # conference | journal
    pattern: str


VENUES = (
    Venue("NeurIPS", "conference",
          r"\bneur ?ips\b|\bnips\b|neural information processing systems"),
    Venue("ICML", "conference", r"\bicml\b|international conference on machine learning"),
    Venue("ICLR", "conference", r"\biclr\b|international conference on learning representations"),
    Venue("CVPR", "conference", r"\bcvpr\b|computer vision and pattern recognition"),
    Venue("ICCV", "conference", r"\biccv\b|international conference on computer vision"),
    Venue("ECCV", "conference", r"\beccv\b|european conference on computer vision"),
    Venue("NAACL", "conference", r"\bnaacl\b|north american chapter of the association for "
                                 r"computational linguistics"),
    Venue("EMNLP", "conference", r"\bemnlp\b|empirical methods in natural language processing"),
    Venue("EACL", "conference", r"\beacl\b|european chapter of the association for "
                                r"computational linguistics"),
    Venue("TACL", "journal", r"\btacl\b|transactions of the association for computational "
                             r"linguistics"),
    Venue("ACL", "conference", r"\bacl\b|annual meeting of the association for computational "
                               r"linguistics"),
    Venue("COLING", "conference", r"\bcoling\b|international conference on computational "
                                  r"linguistics"),
    Venue("AAAI", "conference", r"\baaai\b"),
    Venue("IJCAI", "conference", r"\bijcai\b|international joint conference on artificial "
                                 r"intelligence"),
    Venue("KDD", "conference", r"\bkdd\b|knowledge discovery (and|&) data mining"),
    Venue("SIGIR", "conference", r"\bsigir\b|research and development in information retrieval"),
    Venue("WWW", "conference", r"^www\b|\bthe web conference\b|world wide web conference"),
    Venue("WSDM", "conference", r"\bwsdm\b|web search and data mining"),
    Venue("UAI", "conference", r"\buai\b|uncertainty in artificial intelligence"),
    Venue("AISTATS", "conference", r"\baistats\b|artificial intelligence and statistics"),
    Venue("COLT", "conference", r"\bcolt\b|conference on learning theory"),
    Venue("CoRL", "conference", r"\bcorl\b|conference on robot learning"),
    Venue("ICRA", "conference", r"\bicra\b|international conference on robotics and automation"),
    Venue("IROS", "conference", r"\biros\b|intelligent robots and systems"),
    Venue("Interspeech", "conference", r"\binterspeech\b"),
    Venue("ICASSP", "conference", r"\bicassp\b|acoustics, speech,? and signal processing"),
    Venue("MICCAI", "conference", r"\bmiccai\b|medical image computing and computer.assisted"),
    Venue("JMLR", "journal", r"\bjmlr\b|journal of machine learning research|^j\.? mach\.? learn\.? res"),
    Venue("TMLR", "journal", r"\btmlr\b|transactions on machine learning research"),
    Venue("TPAMI", "journal", r"\btpami\b|\bpami\b|pattern analysis and machine intelligence|"
          r"pattern anal\.? mach\.? intell"),
    Venue("IJCV", "journal", r"\bijcv\b|international journal of computer vision"),
    Venue("TNNLS", "journal", r"\btnnls\b|transactions on neural networks and learning systems"),
    Venue("Nature Machine Intelligence", "journal", r"^nat(ure)?\.? mach(ine)?\.? intell"),
    Venue("Nature Communications", "journal", r"^nat(ure)?\.? commun"),
    Venue("Nature", "journal", r"^nature$"),
    Venue("Science", "journal", r"^science$"),
    Venue("PNAS", "journal", r"\bpnas\b|proceedings of the national academy of sciences"),
    Venue("Phys. Rev. Lett.", "journal", r"^phys(ical)?\.? rev(iew)?\.? lett(ers)?\.?$"),
    Venue("Neural Computation", "journal", r"^neural comput(ation)?\.?$"),
    Venue("Artificial Intelligence", "journal", r"^artif(icial)?\.? intell(igence)?\.?$"),
)

_COMPILED = tuple((v, re.compile(v.pattern, re.IGNORECASE)) for v in VENUES)
_FINDINGS = re.compile(r"\bfindings\b", re.IGNORECASE)
_WORKSHOP = re.compile(r"\bworkshops?\b", re.IGNORECASE)


def find_venue(name: str | None) -> Venue | None:
    """The table's venue whose patterns ``name`` matches first (workshops are not the venue)."""
    text = " ".join((name or "").split())
    if not text or _WORKSHOP.search(text):
        return None
    for venue, pattern in _COMPILED:
        if pattern.search(text):
            return venue
    return None


def short_venue(name: str | None, year: int | str | None = None) -> str | None:
    """``"NeurIPS 2017"`` for a conference (``"Findings of ACL 2021"``), ``"JMLR"`` for a
    journal; None when the venue is not in the table."""
    venue = find_venue(name)
    if venue is None:
        return None
    short = venue.short
    if _FINDINGS.search(name or "") and venue.kind == "conference":
        short = f"Findings of {short}"
    if venue.kind == "conference" and year:
        return f"{short} {year}"
    return short
