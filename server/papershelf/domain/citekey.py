"""Citation keys from a key formula, Better BibTeX-style: fields in brackets and literal text.

The default, ``[auth][year][veryshorttitle]``, is the first author's last name, the year and the
first significant title word, lower-case ASCII (``jiang2026asymmetric``). A clash gets ``a``,
``b``, … ``z``, ``aa``, … appended. Fields:

``[auth]``             the first author's last name (as people's names are split)
``[authors:N]``        the last names of the first N authors (``[authors]``: up to 3)
``[year]``             the year of the first version
``[title:N]``          the first N significant words of the title (``[title]``: all of them)
``[shorttitle]``       ``[title:3]``;  ``[veryshorttitle]``: ``[title:1]``
``[arxiv]``            the arXiv id (``2603.29001``)

A field written in lower case gives lower case (``[auth]`` → ``jiang``), capitalized gives each
word capitalized (``[Auth]`` → ``Jiang``, ``[Title:2]`` → ``AsymmetricActor``), upper case gives
upper case (``[AUTH]``). Literal text may use the characters a key may hold (``A–Z a–z 0–9
_:.-+/``).
"""

from __future__ import annotations

import itertools
import re
import string
import unicodedata
from dataclasses import dataclass

from .names import last_name

# stop words skipped when picking the title word
STOP_WORDS = frozenset(
    """a an the on of in for to and or with without towards toward via from at by into onto over
    under is are be do does can what how why when where which who its it their your our we you
    this that these those not no as vs versus using""".split()
)
_FOLD = str.maketrans(
    {"ß": "ss", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "æ": "ae", "Æ": "ae", "œ": "oe",
     "Œ": "oe", "đ": "d", "Đ": "d", "ð": "d", "þ": "th", "Þ": "th", "ı": "i"}
)
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` (accents dropped, the rest as separators)."""
    if not text.isascii():  # most titles and names are ASCII already: nothing to fold
        text = unicodedata.normalize("NFKD", text.translate(_FOLD))
        text = "".join(c for c in text if not unicodedata.combining(c))
        text = text.encode("ascii", "ignore").decode("ascii")
    return _NON_ALNUM.sub(" ", text.lower()).strip()


DEFAULT_FORMULA = "[auth][year][veryshorttitle]"
FORMULA_MAX = 200
_PART = re.compile(r"\[([A-Za-z]+)(?::(\d{1,2}))?\]|([A-Za-z0-9_:.\-+/]+)")
_FIELDS = {"auth", "authors", "year", "title", "shorttitle", "veryshorttitle", "arxiv"}
_KEY_START = re.compile(r"^[^A-Za-z0-9]+")


@dataclass(frozen=True)
class Part:
    field: str | None  # None: literal text
    text: str  # the literal, or the field as written (its case sets the output's case)
    count: int | None = None


def parse_formula(formula: str) -> tuple[Part, ...]:
    """The parts of a key formula; ``ValueError`` saying what is wrong with an invalid one."""
    if not isinstance(formula, str) or not formula.strip():
        raise ValueError("a key formula needs at least one field, such as [auth][year]")
    if len(formula) > FORMULA_MAX:
        raise ValueError(f"a key formula has at most {FORMULA_MAX} characters")
    parts, at = [], 0
    while at < len(formula):
        m = _PART.match(formula, at)
        if m is None:
            raise ValueError(f"cannot read the formula at {formula[at:at + 12]!r}: fields are "
                             "written [name] or [name:N], literal text uses A–Z a–z 0–9 _:.-+/")
        name, count, literal = m.groups()
        if literal is not None:
            parts.append(Part(None, literal))
        else:
            if name.lower() not in _FIELDS:
                raise ValueError(f"unknown field [{name}] (known: "
                                 + ", ".join(f"[{f}]" for f in sorted(_FIELDS)) + ")")
            if count is not None and name.lower() not in ("authors", "title"):
                raise ValueError(f"[{name}] takes no number")
            if count is not None and not 1 <= int(count) <= 20:
                raise ValueError(f"[{name}:{count}]: the number is 1 to 20")
            parts.append(Part(name.lower(), name, int(count) if count else None))
        at = m.end()
    if not any(p.field for p in parts):
        raise ValueError("a key formula needs at least one field, such as [auth][year]")
    return tuple(parts)


def _cased(words: list[str], written: str) -> str:
    if written.isupper() and len(written) > 1:
        return "".join(words).upper()
    if written[0].isupper():
        return "".join(w.capitalize() for w in words)
    return "".join(words)


def _title_words(record: dict) -> list[str]:
    return [w for w in ascii_fold(record.get("title") or "").split()
            if w not in STOP_WORDS and not w.isdigit()]


def _field_words(part: Part, record: dict) -> list[str]:
    authors = record.get("authors") or []
    if part.field == "auth":
        return ascii_fold(last_name(authors[0])).split() if authors else []
    if part.field == "authors":
        return [w for a in authors[:part.count or 3] for w in ascii_fold(last_name(a)).split()]
    if part.field == "year":
        year = (record.get("published") or "")[:4]
        return [year] if year.isdigit() else []
    if part.field == "arxiv":
        return [record["arxiv_id"].replace("/", "")] if record.get("arxiv_id") else []
    limit = {"shorttitle": 3, "veryshorttitle": 1}.get(part.field, part.count)
    words = _title_words(record)
    return words[:limit] if limit else words


def base_key(record: dict, formula: str | None = None) -> str:
    """The key ``record`` gets by ``formula`` before any clash suffix. A key that would start
    with a non-alphanumeric character, or be empty, starts with ``anon``."""
    parts = parse_formula(formula or DEFAULT_FORMULA)
    out = []
    for part in parts:
        if part.field is None:
            out.append(part.text)
            continue
        words = _field_words(part, record)
        if part.field == "auth" and not words:
            words = ["anon"]
        out.append(_cased(words, part.text))
    key = _KEY_START.sub("", "".join(out))[:90]
    return key if key else "anon"


def is_complete(record: dict) -> bool:
    """Whether the metadata a key is made from is there: a first author and a year (and arXiv
    has answered, when the paper waits for it). Until then a key is provisional."""
    pending = (record.get("enrichment") or {}).get("state") == "pending" \
        if isinstance(record.get("enrichment"), dict) else record.get("enrichment") == "pending"
    year = (record.get("published") or "")[:4]
    return bool(record.get("authors")) and year.isdigit() and not pending


def _suffixes():
    for n in itertools.count(1):
        for letters in itertools.product(string.ascii_lowercase, repeat=n):
            yield "".join(letters)


class KeyRun:
    """The keys of one base handed out in turn, the suffixes tried from where the last key
    stopped, so N keys sharing a base cost O(N) in all (a new ``make_citation_key`` call per key
    re-reads and re-scans them: O(N²)). ``taken``: the keys taken, lower-cased; the run adds each
    key it hands out to that set (runs of several bases may share one)."""

    def __init__(self, taken: set[str]):
        self.taken = taken
        self._suffixes = _suffixes()

    def next_key(self, base: str) -> str:
        key = base
        if key.lower() in self.taken:
            key = next(base + s for s in self._suffixes if (base + s).lower() not in self.taken)
        self.taken.add(key.lower())
        return key


def make_citation_key(record: dict, taken: set[str], base: str | None = None) -> str:
    """A key for ``record`` that is not in ``taken`` without regard to case, as BibTeX compares
    keys (the caller stores it and adds it to ``taken``). ``base`` is ``base_key(record)``, for a
    caller that has it already."""
    return KeyRun({t.lower() for t in taken}).next_key(base or base_key(record))
