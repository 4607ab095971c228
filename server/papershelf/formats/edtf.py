"""Dates that say more than a day, a month or a year: EDTF, as BibLaTeX's ``date`` field and
CSL-JSON's date objects write them.

The store keeps a paper's date as a day with its precision (``published``, ``published_precision``,
years 1 to 9999). Files also write seasons (``2004-22``, CSL's ``season`` or month 13–16),
intervals (``2004/2005``, ``2004-21/2005``, an open end ``2004/..``), uncertain and approximate
dates (``2004?``, ``2004~``, CSL's ``circa``) and years before the common era (EDTF ``-0333``,
CSL ``-334``: EDTF counts a year 0, CSL does not). ``read_edtf`` reads such a text into the date the
store can hold (the year, and month and day where they are plain) and says whether that is all of
it; ``csl_to_edtf`` and ``edtf_to_csl`` turn a CSL date into EDTF text and back. What the store
cannot hold is kept by the readers as the file wrote it (``verbatim``) and written back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PART = re.compile(r"^(?:(?P<sign>-)?(?P<year>\d{4})|y(?P<long>-?\d{5,}))"
                   r"(?:-(?P<month>\d{2})(?:-(?P<day>\d{2}))?)?(?P<q>[?~%])?$")
_OPEN = ("", "..", "unknown")
SEASONS = range(21, 25)  # EDTF: spring, summer, autumn, winter
_CSL_SEASONS = {13: 21, 14: 22, 15: 23, 16: 24}  # CSL's months for the seasons
FIRST_YEAR, LAST_YEAR = 1, 9999  # what the store's dates hold


@dataclass(frozen=True)
class Edtf:
    """A date as the store can keep it (``published`` ``YYYY-MM-DD`` and its precision, or None
    for a year it cannot hold), and whether that is all the text said (``exact``)."""

    published: str | None
    precision: str | None
    exact: bool


def _days_in(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _part(text: str) -> tuple[int, int | None, int | None, str] | None:
    """``(year, month or season, day, qualifier)`` of one EDTF date (astronomical year)."""
    m = _PART.match(text.strip())
    if not m:
        return None
    year = int(m["long"]) if m["long"] else int(m["year"]) * (-1 if m["sign"] else 1)
    month = int(m["month"]) if m["month"] else None
    day = int(m["day"]) if m["day"] else None
    if month is not None and not (1 <= month <= 12 or month in SEASONS) or \
            day is not None and (month is None or month > 12 or not 1 <= day <= 31):
        return None
    return year, month, day, m["q"] or ""


def day_of(year: int, month: int | None, day: int | None) -> int | None:
    """``day`` when it is a day of that month (of a year the store holds), else None."""
    if month is None or day is None or not 1 <= month <= 12:
        return None
    return day if 1 <= day <= _days_in(year, month) else None


def read_edtf(text: str) -> Edtf | None:
    """The date an EDTF text names, as the store can hold it: an interval by its start (its end
    when the start is open), a season by its year; None when the text is no EDTF date."""
    text = text.strip()
    ends = text.split("/")
    if len(ends) > 2:
        return None
    parts = [None if end in _OPEN else _part(end) for end in ends]
    if any(p is None and end not in _OPEN for p, end in zip(parts, ends, strict=True)) or \
            not any(parts):
        return None
    year, month, day, qualifier = next(p for p in parts if p)
    exact = len(parts) == 1 and not qualifier
    if not FIRST_YEAR <= year <= LAST_YEAR:
        return Edtf(None, None, False)
    month = month if month is not None and month <= 12 else None
    exact = exact and (month is not None) == (parts[0][1] is not None)
    real_day = day_of(year, month, day)
    exact = exact and real_day == day
    precision = None if real_day else "month" if month else "year"
    return Edtf(f"{year:04d}-{month or 1:02d}-{real_day or 1:02d}", precision, exact)


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _edtf_part(numbers: list, season: int | None, qualifier: str) -> str | None:
    year = _int(numbers[0]) if numbers else None
    if year is None or year == 0:
        return None
    year = year + 1 if year < 0 else year  # CSL's 334 BC is EDTF's -0333
    text = f"-{-year:04d}" if year < 0 else f"{year:04d}"
    if not -9999 <= year <= 9999:
        text = f"y{year}"
    month = _int(numbers[1]) if len(numbers) > 1 else None
    month = _CSL_SEASONS.get(month, month) if month else (season + 20 if season else None)
    if month and (1 <= month <= 12 or month in SEASONS):
        text += f"-{month:02d}"
        day = _int(numbers[2]) if len(numbers) > 2 and month <= 12 else None
        if day and 1 <= day <= 31:
            text += f"-{day:02d}"
    return text + qualifier


def csl_to_edtf(issued: dict) -> str | None:
    """A CSL date object (``date-parts`` of one date or two, a ``season``, ``circa``) as EDTF
    text; None when it is not one."""
    parts = issued.get("date-parts")
    if not isinstance(parts, list) or not parts or not all(isinstance(p, list) for p in parts):
        return None
    season = issued.get("season")
    season = _int(season) if _int(season) in (1, 2, 3, 4) else None
    qualifier = "~" if issued.get("circa") in (True, 1, "1", "true") else ""
    start = _edtf_part(parts[0], season, qualifier)
    if start is None or len(parts) == 1:
        return start
    end = _edtf_part(parts[1], None, qualifier)
    return f"{start}/{end if end is not None else '..'}"


def _csl_part(part: tuple[int, int | None, int | None, str]) -> list[int]:
    year, month, day, _ = part
    out = [year - 1 if year <= 0 else year]  # EDTF's year 0 is CSL's 1 BC
    if month is not None:
        out.append({v: k for k, v in _CSL_SEASONS.items()}.get(month, month))
        if day is not None:
            out.append(day)
    return out


def edtf_to_csl(text: str) -> dict | None:
    """An EDTF text as a CSL date object: seasons as CSL's months 13–16, an open end as
    ``[0]``, an uncertain or approximate date as ``circa``; None when it is not EDTF."""
    ends = text.strip().split("/")
    if len(ends) > 2:
        return None
    parts = [None if end in _OPEN else _part(end) for end in ends]
    if any(p is None and end not in _OPEN for p, end in zip(parts, ends, strict=True)) or \
            parts[0] is None:
        return None
    out: dict = {"date-parts": [_csl_part(p) if p else [0] for p in parts]}
    if any(p and p[3] for p in parts):
        out["circa"] = True
    return out


def more_than_a_date(text: str, published: str | None) -> str:
    """What a report says of a date the store holds only in part."""
    if published is None:
        return f"{text[:100]!r} is a year the store cannot hold: kept, and exported, as written"
    return (f"{text[:100]!r} says more than one date (a season, an interval, an uncertain or "
            f"approximate date): read as {published[:4]}, exported as written")
