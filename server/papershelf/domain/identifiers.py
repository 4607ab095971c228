"""Paper identifiers: arXiv ids (new and old style, in every form a page links them), DOIs, URLs.

``normalize_arxiv_id`` answers ``(id, version)`` with the id in its canonical form (no version,
old-style subject class dropped: ``math.GT/0309136`` → ``math/0309136``), or raises ValueError.
"""

import re
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

# Archives that used old-style identifiers (arXiv's identifier documentation).
OLD_ARCHIVES = frozenset(
    """acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph cmp-lg
    comp-gas cond-mat cs dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph mtrl-th
    nlin nucl-ex nucl-th patt-sol physics plasm-ph q-alg q-bio quant-ph solv-int supr-con""".split()
)

_NEW = re.compile(r"(?P<yy>\d{2})(?P<mm>\d{2})\.(?P<num>\d{4,5})(?:v(?P<v>\d+))?")
_OLD = re.compile(
    r"(?P<archive>[a-z]+(?:-[a-z]+)?)(?:\.(?P<subject>[A-Za-z]{2}))?/"
    r"(?P<yy>\d{2})(?P<mm>\d{2})(?P<num>\d{3})(?:v(?P<v>\d+))?"
)
_URL_FORMS = re.compile(
    r"^(?:https?://)?(?:www\.|export\.)?(?:arxiv\.org|alphaxiv\.org)"
    r"/(?:abs|pdf|overview|html|format)/(?P<rest>.+?)(?:\.pdf)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def normalize_arxiv_id(value: str) -> tuple[str, int | None]:
    """``'arXiv:2603.01234v2'`` → ``('2603.01234', 2)``; ValueError if it is no arXiv id."""
    if not isinstance(value, str):
        raise ValueError("an arXiv id is a string")
    text = value.strip()
    m = _URL_FORMS.match(text)
    if m:
        text = unquote(m.group("rest"))
    elif text[:6].lower() == "arxiv:":
        text = text[6:].strip()
    else:
        doi = _ARXIV_DOI.match(_DOI_PREFIX.sub("", text))
        if doi:
            text = doi.group(1)
    m = _NEW.fullmatch(text)
    if m:
        yy, mm, num = int(m["yy"]), int(m["mm"]), m["num"]
        if not 1 <= mm <= 12:
            raise ValueError(f"not an arXiv id (month {m['mm']}): {value!r}")
        # Four-digit numbers ran from 0704 to 1412, five digits from 1501 on.
        if (len(num) == 5) != (yy >= 15) or (yy, mm) < (7, 4):
            raise ValueError(f"not an arXiv id (number length for {m['yy']}{m['mm']}): {value!r}")
        return f"{m['yy']}{m['mm']}.{num}", _version(m["v"])
    m = _OLD.fullmatch(text)
    if m:
        archive = m["archive"].lower()
        mm = int(m["mm"])
        if archive not in OLD_ARCHIVES or not 1 <= mm <= 12:
            raise ValueError(f"not an arXiv id: {value!r}")
        if m["subject"] and archive not in ("math", "cs", "physics", "q-bio", "nlin"):
            raise ValueError(f"not an arXiv id (subject class): {value!r}")
        return f"{archive}/{m['yy']}{m['mm']}{m['num']}", _version(m["v"])
    raise ValueError(f"not an arXiv id: {value!r}")


def _version(v: str | None) -> int | None:
    if v is None:
        return None
    n = int(v)
    if n < 1:
        raise ValueError("arXiv versions start at v1")
    return n


_CANONICAL_NEW = re.compile(r"(\d{2})(0[1-9]|1[0-2])\.\d{5}")


def try_arxiv_id(value: str) -> str | None:
    """The normalized id, or None. Ids already in today's canonical form skip the full parse
    (a page lookup sends hundreds of them)."""
    if isinstance(value, str) and _CANONICAL_NEW.fullmatch(value) and value[:2] >= "15":
        return value
    try:
        return normalize_arxiv_id(value)[0]
    except ValueError:
        return None


def normalize_doi(value: str) -> str:
    """``'https://doi.org/10.1145/ABC'`` → ``'10.1145/abc'``; ValueError if it is no DOI."""
    text = _DOI_PREFIX.sub("", (value or "").strip())
    text = unquote(text).lower()
    if not _DOI.match(text):
        raise ValueError(f"not a DOI: {value!r}")
    return text


_TRACKING = re.compile(r"^(utm_[a-z]+|fbclid|gclid|ref_src)$", re.IGNORECASE)


def normalize_url(value: str) -> str:
    """An http(s) URL in canonical form: lower-case scheme and host, no fragment, no tracking."""
    text = (value or "").strip()
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {value!r}")
    host = parts.hostname.lower()
    if parts.port and not (
        (parts.scheme.lower() == "http" and parts.port == 80)
        or (parts.scheme.lower() == "https" and parts.port == 443)
    ):
        host = f"{host}:{parts.port}"
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if not _TRACKING.match(k)])
    return urlunsplit((parts.scheme.lower(), host, parts.path or "/", query, ""))


def arxiv_abs_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/abs/{arxiv_id}"


def arxiv_pdf_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/pdf/{arxiv_id}"
