"""Citation keys: first author's last name + year + first significant title word, lower-case ASCII
(``jiang2026asymmetric``); a clash gets ``a``, ``b``, … ``z``, ``aa``, … appended."""

from __future__ import annotations

import itertools
import re
import string
import unicodedata

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


def base_key(record: dict) -> str:
    authors = record.get("authors") or []
    name = ascii_fold(last_name(authors[0])) if authors else ""
    name = name.replace(" ", "") or "anon"
    year = (record.get("published") or "")[:4]
    year = year if year.isdigit() else ""
    word = next(
        (w for w in ascii_fold(record.get("title") or "").split()
         if w not in STOP_WORDS and not w.isdigit()),
        "",
    )
    return f"{name}{year}{word}"


def _suffixes():
    for n in itertools.count(1):
        for letters in itertools.product(string.ascii_lowercase, repeat=n):
            yield "".join(letters)


def make_citation_key(record: dict, taken: set[str], base: str | None = None) -> str:
    """A key for ``record`` that is not in ``taken`` (the caller stores it and adds it to ``taken``).
    ``base`` is ``base_key(record)``, for a caller that has it already."""
    base = base or base_key(record)
    if base not in taken:
        return base
    for suffix in _suffixes():
        key = base + suffix
        if key not in taken:
            return key
    raise AssertionError("unreachable")
