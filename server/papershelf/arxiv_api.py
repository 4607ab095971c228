"""The arXiv API client: one ``id_list`` query, its Atom answer read into plain metadata.

``fetch(ids, base_url, timeout)`` asks for up to a few hundred ids in one call and answers an
:class:`ArxivAnswer`: metadata per normalized id, the ids arXiv does not know, the ids it has
withdrawn, and the ids it rejected. Failures are exceptions a caller can act on:
:class:`ArxivUnavailable` (5xx, network, timeout: worth retrying later) and
:class:`ArxivBadAnswer` (a body that is not the Atom feed the manual describes: not worth it).

The format is the one in arXiv's API user manual: an Atom ``<feed>`` of ``<entry>`` elements with
``<id>http://arxiv.org/abs/<id>v<n></id>``, ``<published>`` (first version), ``<author><name>``
(and ``<arxiv:affiliation>``), ``<arxiv:primary_category term>``, ``<category term>``,
``<arxiv:doi>``, ``<arxiv:journal_ref>``, ``<arxiv:comment>``; errors come as a feed whose one
entry has an ``…/api/errors#…`` id.
The XML is read with defusedxml: the answer comes from the network.
"""

from __future__ import annotations

import re
import urllib.request
from dataclasses import dataclass, field
from datetime import date
from urllib.parse import urlencode

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from papershelf import __version__, remote
from papershelf.domain.identifiers import normalize_arxiv_id, normalize_doi

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
USER_AGENT = f"papershelf/{__version__} (metadata enrichment; +https://arxiv.org/help/api)"
MAX_BODY = 20 << 20  # a 100-id answer is a few hundred KB

# arXiv marks a withdrawn version in its comment ("This paper has been withdrawn by the author")
# and usually in the abstract too.
_WITHDRAWN = re.compile(r"\b(has been|was|is) withdrawn\b|^\s*withdrawn\b", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_BAD_ID = re.compile(r"incorrect id format for (\S+)", re.IGNORECASE)


class ArxivError(Exception):
    """The call did not give usable metadata."""


class ArxivUnavailable(ArxivError, remote.Unavailable):
    """arXiv is down, overloaded or unreachable (5xx, network error, timeout): retry later."""


class ArxivBadAnswer(ArxivError):
    """The answer is not the Atom feed the API documents (or an unexpected HTTP status)."""


@dataclass
class ArxivPaper:
    arxiv_id: str
    version: int | None
    title: str
    summary: str
    authors: list[str]
    published: date | None
    updated: date | None
    primary_category: str | None
    categories: list[str]
    doi: str | None
    journal_ref: str | None
    comments: str | None
    affiliations: list[str] = field(default_factory=list)  # the authors', in order, each once


@dataclass
class ArxivAnswer:
    papers: dict[str, ArxivPaper] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)  # no such paper on arXiv
    withdrawn: dict[str, ArxivPaper] = field(default_factory=dict)
    rejected: dict[str, str] = field(default_factory=dict)  # id -> arXiv's error message


def query_url(base_url: str, ids: list[str]) -> str:
    # max_results defaults to 10: ask for all of them.
    params = urlencode({"id_list": ",".join(ids), "max_results": str(len(ids))}, safe=",/")
    return f"{base_url}{'&' if '?' in base_url else '?'}{params}"


def fetch(ids: list[str], base_url: str, timeout: float = 30.0) -> ArxivAnswer:
    """Metadata for ``ids`` (normalized arXiv ids, no versions) in one call."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return ArxivAnswer()
    body, status = _get(query_url(base_url, ids), timeout)
    return parse_feed(body, ids, status=status)


def _get(url: str, timeout: float) -> tuple[bytes, int]:
    request = urllib.request.Request(url, headers={
        "User-Agent": USER_AGENT, "Accept": "application/atom+xml, application/xml;q=0.9"})
    status, body, headers = remote.call(request, timeout, name="arXiv", max_body=MAX_BODY,
                                        unavailable=ArxivUnavailable)
    if not remote.is_error(status):
        return body, status
    if status >= 500 or status == 429:
        raise ArxivUnavailable(f"arXiv answered HTTP {status}", status=status,
                               retry_after=remote.retry_after(headers.get("Retry-After")))
    if status == 400 and body:
        return body, status  # arXiv explains a rejected query in an Atom error feed
    raise ArxivBadAnswer(f"arXiv answered HTTP {status}")


def _text(element, tag: str) -> str | None:
    child = element.find(tag)
    if child is None or child.text is None:
        return None
    text = _SPACE.sub(" ", child.text).strip()
    return text or None


def _date(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _doi(value: str | None) -> str | None:
    """The first DOI of an ``arxiv:doi`` element (it may list several, space separated)."""
    for candidate in (value or "").split():
        try:
            return normalize_doi(candidate)
        except ValueError:
            continue
    return None


def parse_entry(entry) -> ArxivPaper | None:
    """One ``<entry>``; None for the empty entries arXiv gives for ids it does not have."""
    raw_id = _text(entry, f"{ATOM}id")
    title = _text(entry, f"{ATOM}title")
    if not raw_id or "/api/errors" in raw_id or not title:
        return None
    try:
        arxiv_id, version = normalize_arxiv_id(raw_id)
    except ValueError as e:
        raise ArxivBadAnswer(f"an entry's id is not an arXiv id: {raw_id[:100]!r}") from e
    authors, affiliations = [], []
    for author in entry.findall(f"{ATOM}author"):
        name = _text(author, f"{ATOM}name")
        if name:
            authors.append(name)
        for affiliation in author.findall(f"{ARXIV}affiliation"):
            text = _SPACE.sub(" ", affiliation.text or "").strip()
            if text and text.casefold() not in {a.casefold() for a in affiliations}:
                affiliations.append(text)
    primary = entry.find(f"{ARXIV}primary_category")
    primary_term = (primary.get("term") or "").strip() if primary is not None else ""
    categories = []
    for category in entry.findall(f"{ATOM}category"):
        term = (category.get("term") or "").strip()
        if term and term not in categories:
            categories.append(term)
    if primary_term and primary_term not in categories:
        categories.insert(0, primary_term)
    return ArxivPaper(
        arxiv_id=arxiv_id,
        version=version,
        title=title,
        summary=_text(entry, f"{ATOM}summary") or "",
        authors=authors,
        published=_date(_text(entry, f"{ATOM}published")),
        updated=_date(_text(entry, f"{ATOM}updated")),
        primary_category=primary_term or None,
        categories=categories,
        doi=_doi(_text(entry, f"{ARXIV}doi")),
        journal_ref=_text(entry, f"{ARXIV}journal_ref"),
        comments=_text(entry, f"{ARXIV}comment"),
        affiliations=affiliations,
    )


def is_withdrawn(paper: ArxivPaper) -> bool:
    return bool(_WITHDRAWN.search(paper.comments or "")
                or _WITHDRAWN.search(paper.summary[:200]))


def parse_feed(body: bytes | str, ids: list[str], status: int = 200) -> ArxivAnswer:
    """Read an Atom answer to a query for ``ids``."""
    if not body or not body.strip():
        raise ArxivBadAnswer("arXiv answered with an empty body")
    if len(body) > MAX_BODY:
        raise ArxivBadAnswer("arXiv's answer is too large")
    try:
        root = ElementTree.fromstring(body, forbid_dtd=True)
    except (ElementTree.ParseError, DefusedXmlException, ValueError) as e:
        raise ArxivBadAnswer(f"arXiv's answer is not XML: {str(e)[:120]}") from None
    if root.tag != f"{ATOM}feed":
        raise ArxivBadAnswer(f"arXiv's answer is not an Atom feed (root <{root.tag[:60]}>)")
    answer = ArxivAnswer()
    wanted = set(ids)
    for entry in root.findall(f"{ATOM}entry"):
        raw_id = _text(entry, f"{ATOM}id") or ""
        if "/api/errors" in raw_id:
            message = _text(entry, f"{ATOM}summary") or _text(entry, f"{ATOM}title") or "error"
            m = _BAD_ID.search(message)
            bad = m.group(1) if m else None
            if bad is not None:
                try:
                    bad = normalize_arxiv_id(bad)[0]
                except ValueError:
                    pass
            if bad in wanted:
                answer.rejected[bad] = message
            else:
                raise ArxivBadAnswer(f"arXiv rejected the query: {message[:200]}")
            continue
        paper = parse_entry(entry)
        if paper is None or paper.arxiv_id not in wanted:
            continue
        if is_withdrawn(paper):
            answer.withdrawn[paper.arxiv_id] = paper
        else:
            answer.papers[paper.arxiv_id] = paper
    if status != 200 and not answer.rejected:
        raise ArxivBadAnswer(f"arXiv answered HTTP {status}")
    seen = set(answer.papers) | set(answer.withdrawn) | set(answer.rejected)
    answer.unknown = [i for i in ids if i not in seen]
    return answer
