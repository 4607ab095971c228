"""Paper identifiers: arXiv ids, DOIs and URLs, in every form a page, a file or a person gives.

``normalize_arxiv_id`` answers ``(id, version)`` with the id in its canonical form (no version,
old-style subject class dropped: ``math.GT/0309136`` → ``math/0309136``), or raises ValueError.
The rule is arXiv's own scheme; ``tests/shared/identifiers.json`` states it with its cases, and
``extension/lib/ids.js`` implements the same rule against the same cases. So it is for
``normalize_url`` (a URL's canonical form, the key a paper's address is stored and looked up
under) and ``arxiv_abs_url`` (a paper's abstract page); DOIs have ``normalize_doi``.
"""

import re
from urllib.parse import quote_plus, unquote, unquote_plus

# The archives that minted old-style ids (archive/YYMMNNN), i.e. every archive of arXiv's taxonomy
# that began before April 2007; stat, q-fin, econ and eess began later, with new-style ids only.
OLD_ARCHIVES = frozenset(
    """acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph cmp-lg
    comp-gas cond-mat cs dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph mtrl-th
    nlin nucl-ex nucl-th patt-sol physics plasm-ph q-alg q-bio quant-ph solv-int supr-con""".split()
)
# Old-style ids with a two-letter subject class: math.GT/0309136, cs.AI/0101001.
SUBJECT_CLASS_ARCHIVES = frozenset({"math", "cs", "nlin", "q-bio", "physics"})
# (year, month) windows: old style from arXiv's first paper to March 2007, new style after.
OLD_STYLE_MONTHS = ((1991, 8), (2007, 3))
NEW_STYLE_FIRST_MONTH = (2007, 4)
FIVE_DIGITS_FROM = (2015, 1)

# ASCII only (re.ASCII): Python's \d and case folding would let in what JavaScript's do not.
_SPACE = "[ \t\n\r\f\v\u00a0\ufeff]"
_TRIM = re.compile(f"^{_SPACE}+|{_SPACE}+$")
_VERSION = r"(?:v(?P<v>[1-9][0-9]*))?"
_NEW = re.compile(r"(?P<yy>[0-9]{2})(?P<mm>[0-9]{2})\.(?P<num>[0-9]{4,5})" + _VERSION)
_OLD = re.compile(
    r"(?P<archive>[A-Za-z]+(?:-[A-Za-z]+)?)(?:\.(?P<subject>[A-Za-z]{2}))?/"
    r"(?P<yy>[0-9]{2})(?P<mm>[0-9]{2})(?P<num>[0-9]{3})" + _VERSION
)
_PREFIX = re.compile(f"arxiv:{_SPACE}*", re.ASCII | re.IGNORECASE)
_URL = re.compile(
    r"(?:https?://)?(?:(?P<arxiv>(?:www\.|export\.)?arxiv\.org)|(?:www\.)?alphaxiv\.org)"
    r"/(?:abs|pdf|html|format|overview)/(?P<id>[^?#]+?)(?:\.pdf)?/?(?:[?#].*)?",
    re.ASCII | re.IGNORECASE | re.DOTALL,
)
_DOI_PREFIX = re.compile(f"^(?:https?://(?:dx\\.)?doi\\.org/|doi:{_SPACE}*)", re.ASCII | re.IGNORECASE)
# What files write before a DOI: any DOI resolver's address (doi.org, dx.doi.org, doi.acm.org,
# doi.ieeecomputersociety.org…), "doi:", "DOI ", "info:doi/", "urn:doi:".
_DOI_ANY_PREFIX = re.compile(
    r"^(?:(?:https?://)?(?:[a-z0-9-]+\.)*doi(?:\.[a-z0-9-]+)*\.[a-z]+/+|info:doi/|urn:doi:"
    r"|doi:?[ \t\n\r\f\v]*)",
    re.ASCII | re.IGNORECASE)
# The rule extension/lib/identities.js normalizeDoi follows too (tests/shared/identities.json):
# ASCII digits; no space (as _URL_SPACE has them) inside.
_DOI = re.compile("10\\.[0-9]{4,9}/[^\x00-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f"
                  "\u205f\u3000\ufeff]+")
_SHORT_DOI = re.compile(r"10/[a-z0-9]+", re.ASCII)  # shortDOI (https://shortdoi.org): 10/fqd6hj
_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(?P<id>.+)", re.ASCII | re.IGNORECASE | re.DOTALL)


def _trim(value: str) -> str:
    return _TRIM.sub("", value)


def normalize_arxiv_id(value: str) -> tuple[str, int | None]:
    """``'arXiv:2603.01234v2'`` → ``('2603.01234', 2)``; ValueError if it is no arXiv id."""
    if not isinstance(value, str):
        raise ValueError("an arXiv id is a string")
    text = _trim(value)
    if m := _URL.fullmatch(text):
        text = unquote(m["id"])
    elif m := _PREFIX.match(text):
        text = text[m.end():]
    elif m := _arxiv_doi(text):
        text = m["id"]
    if m := _NEW.fullmatch(text):
        yymm = (2000 + int(m["yy"]), int(m["mm"]))
        if not 1 <= yymm[1] <= 12 or yymm < NEW_STYLE_FIRST_MONTH:
            raise ValueError(f"not an arXiv id (no such month): {value!r}")
        if (len(m["num"]) == 5) != (yymm >= FIVE_DIGITS_FROM) or not int(m["num"]):
            raise ValueError(f"not an arXiv id (number for {m['yy']}{m['mm']}): {value!r}")
        return f"{m['yy']}{m['mm']}.{m['num']}", _version(m["v"])
    if m := _OLD.fullmatch(text):
        archive = m["archive"].lower()
        yymm = ((1900 if m["yy"] >= "91" else 2000) + int(m["yy"]), int(m["mm"]))
        if archive not in OLD_ARCHIVES:
            raise ValueError(f"not an arXiv id (no such archive): {value!r}")
        if m["subject"] and archive not in SUBJECT_CLASS_ARCHIVES:
            raise ValueError(f"not an arXiv id (subject class): {value!r}")
        if not 1 <= yymm[1] <= 12 or not OLD_STYLE_MONTHS[0] <= yymm <= OLD_STYLE_MONTHS[1]:
            raise ValueError(f"not an arXiv id (no such month): {value!r}")
        if not int(m["num"]):
            raise ValueError(f"not an arXiv id (number 000): {value!r}")
        return f"{archive}/{m['yy']}{m['mm']}{m['num']}", _version(m["v"])
    raise ValueError(f"not an arXiv id: {value!r}")


def _version(v: str | None) -> int | None:
    return int(v) if v else None


def _arxiv_doi(text: str) -> re.Match | None:
    return _ARXIV_DOI.fullmatch(_DOI_PREFIX.sub("", text))


def find_arxiv_id(*candidates: str) -> tuple[str | None, int | None]:
    """``(id, version)`` of the first candidate that names an arXiv paper (an eprint field, a URL,
    a DOI: whatever a file gives), ``(None, None)`` when none does."""
    for candidate in candidates:
        try:
            return normalize_arxiv_id(candidate)
        except ValueError:
            continue
    return None, None


def is_arxiv_doi(value: str | None) -> bool:
    """The DOI arXiv mints for a paper (``10.48550/arXiv.…``), in any of its forms."""
    return isinstance(value, str) and _arxiv_doi(_trim(value)) is not None


def is_arxiv_url(value: str | None) -> bool:
    """A paper's address on arxiv.org itself (not alphaXiv), in any form: one its id implies."""
    m = _URL.fullmatch(_trim(value)) if isinstance(value, str) else None
    return m is not None and m["arxiv"] is not None


# Today's canonical form (from 2015 on), which the full parse would answer unchanged.
_CANONICAL_NEW = re.compile(r"(?:1[5-9]|[2-9][0-9])(?:0[1-9]|1[0-2])\.(?!00000)[0-9]{5}")


def try_arxiv_id(value: str) -> str | None:
    """The normalized id, or None. Ids already in today's canonical form skip the full parse
    (a page lookup sends hundreds of them)."""
    if isinstance(value, str) and _CANONICAL_NEW.fullmatch(value):
        return value
    try:
        return normalize_arxiv_id(value)[0]
    except ValueError:
        return None


def doi_without_prefix(value: str) -> str:
    """``'https://doi.org/10.1145/ABC'`` → ``'10.1145/ABC'``: the DOI as written, without its
    resolver's address (``http://doi.acm.org/…`` too), ``doi:`` or ``info:doi/``."""
    return _DOI_ANY_PREFIX.sub("", (value or "").strip())


def normalize_doi(value: str) -> str:
    """``'https://doi.org/10.1145/ABC'`` → ``'10.1145/abc'``, a shortDOI ``10/fqd6hj`` as it is;
    the DOI behind any resolver's address, percent-encoded or not (``https%3A%2F%2Fdoi.org…``);
    ValueError if it is no DOI. The one DOI rule: every reader of a DOI takes it from here."""
    if not isinstance(value, str):
        raise ValueError("a DOI is a string")
    text = unquote(_DOI_ANY_PREFIX.sub("", trim_url_space(unquote(trim_url_space(value)))))
    text = trim_url_space(text).translate(_ASCII_LOWER)  # DOIs ignore case in ASCII only
    if not (_DOI.fullmatch(text) or _SHORT_DOI.fullmatch(text)):
        raise ValueError(f"not a DOI: {value!r}")
    return text


# Query parameters that say where a visitor came from, not what the page is.
_TRACKING = re.compile(r"utm_[a-z]+|fbclid|gclid|ref_src", re.ASCII | re.IGNORECASE)
URL_SCHEMES = ("http", "https", "ftp")
_DEFAULT_PORTS = {"http": 80, "https": 443}
# What may surround a pasted address: C0 controls, spaces, Unicode's other spaces, a BOM.
_URL_SPACE = ("".join(map(chr, range(0x21))) + "\x85\xa0\u1680"
              + "".join(map(chr, range(0x2000, 0x200b))) + "\u2028\u2029\u202f\u205f\u3000\ufeff")
_URL_DROPPED = re.compile("[\t\r\n]")  # as browsers do, anywhere in the address
_URL_PARTS = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^?#]*)(?:\?([^#]*))?")
_PORT = re.compile(r"[0-9]{1,5}", re.ASCII)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def trim_url_space(text: str) -> str:
    """``text`` without the spaces and controls around it (``_URL_SPACE``)."""
    return text.strip(_URL_SPACE)


def normalize_url(value: str) -> str:
    """An http(s) (or ftp, as old reports are) URL in canonical form; ValueError if it is none.

    The rule, which ``extension/lib/ids.js`` ``normalizeUrl`` follows too (the ``urls`` cases of
    tests/shared/identifiers.json): surrounding spaces and controls trimmed, tabs and line breaks
    dropped; the scheme and the host in lower case (ASCII letters only), without user info, port 0
    or the scheme's default port; the path as written (``/`` when empty); no fragment; the query's
    parameters in their order, without the empty and the tracking ones (``utm_*``, ``fbclid``,
    ``gclid``, ``ref_src``), encoded again as a form encodes them. Hosts in brackets (IPv6
    literals, or any bracket before the path) and ports that are not a number up to 65535 are
    refused.
    """
    scheme, host, path, query = url_parts(value)
    return f"{scheme}://{host}{path}" + (f"?{query}" if query else "")


def url_parts(value: str) -> tuple[str, str, str, str]:
    """``normalize_url(value)``'s scheme, host (``host[:port]``), path and query (``""`` when it
    has none), for a reader of the address that would otherwise parse it again; ValueError as
    ``normalize_url``."""
    text = trim_url_space(value if isinstance(value, str) else "")
    if "\t" in text or "\n" in text or "\r" in text:
        text = _URL_DROPPED.sub("", text)
    m = _URL_PARTS.match(text)
    scheme = m[1].lower() if m else None
    if scheme not in URL_SCHEMES:
        raise ValueError(f"not an http(s) URL: {value!r}")
    host = m[2] if _PLAIN_HOST.fullmatch(m[2]) else _host(m[2], scheme)
    if host is None:
        raise ValueError(f"not an http(s) URL (its host or port): {value!r}")
    return scheme, host, m[3] or "/", _query(m[4] or "")


# An authority already in canonical form: a host name in lower case, no user, port or brackets.
_PLAIN_HOST = re.compile(r"[a-z0-9.-]+", re.ASCII)


def _host(authority: str, scheme: str) -> str | None:
    """``host[:port]`` of an authority in canonical form, or None when it is not one."""
    host, _, port = authority.rpartition("@")[2].partition(":")
    if not host or "[" in authority or "]" in authority or (port and not _PORT.fullmatch(port)):
        return None
    number = int(port or 0)
    if number > 65535:
        return None
    host = host.translate(_ASCII_LOWER)
    return host if number in (0, _DEFAULT_PORTS.get(scheme)) else f"{host}:{number}"


# A query already in its canonical form: pairs of characters a form never escapes, no tracking.
_PLAIN_QUERY = re.compile(r"[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~-]*(?:&[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~-]*)*")
_TRACKING_PAIR = re.compile(r"(?:^|&)(?:utm_[a-z]+|fbclid|gclid|ref_src)=",
                            re.ASCII | re.IGNORECASE)


def _query(query: str) -> str:
    """A query's ``name=value`` pairs as a form encodes them (UTF-8, a space as ``+``), in their
    order, without the empty and the tracking ones."""
    if _PLAIN_QUERY.fullmatch(query) and not _TRACKING_PAIR.search(query):
        return query  # what the rule would write again (a page lookup sends hundreds)
    pairs = []
    for piece in query.split("&"):
        if piece:
            name, _, value = piece.partition("=")
            name, value = unquote_plus(name), unquote_plus(value)
            if not _TRACKING.fullmatch(name):
                pairs.append(f"{quote_plus(name)}={quote_plus(value)}")
    return "&".join(pairs)


# A paper's pages on arXiv, from its normalized id. The abstract page is the url a paper gets when
# a page gives none (extension/lib/ids.js arxivAbsUrl; tests/shared/identifiers.json abs_urls).


def arxiv_abs_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/abs/{arxiv_id}"


def arxiv_doi(arxiv_id: str) -> str:
    """The DOI arXiv mints for a paper (``is_arxiv_doi`` knows it back)."""
    return f"10.48550/arXiv.{arxiv_id}"


def arxiv_pdf_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/pdf/{arxiv_id}"


def arxiv_html_url(arxiv_id: str) -> str:
    """The full text in arXiv's HTML view (its latest version)."""
    return f"https://arxiv.org/html/{arxiv_id}"
