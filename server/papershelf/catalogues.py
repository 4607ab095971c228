"""Clients of the catalogues that know a preprint's published version: Semantic Scholar's
Graph API, DBLP and Crossref. Each answers plain data; failures are exceptions a caller can act
on: :class:`CatalogueUnavailable` (429, 5xx, network, timeout: retry later, ``retry_after``
when the service said so) and :class:`CatalogueBadAnswer` (HTML where JSON was expected, a
truncated body, an unexpected status: the answer is not used).

The paths and shapes are the services' documented ones:
- Semantic Scholar: ``POST {s2}/graph/v1/paper/batch?fields=…`` with ``{"ids": ["arXiv:<id>",
  …]}`` (≤ 500 ids) answers a list in the order asked, ``null`` for an id it does not know;
  ``x-api-key`` carries a key when there is one.
- DBLP: ``GET {dblp}/search/publ/api?q=…&format=json&h=…&f=…`` answers
  ``{"result": {"hits": {"@total", "@sent", "@first", "hit": [{"info": {…}}]}}}`` (an
  ``author`` is an object when there is one, a list when there are several);
  ``GET {dblp}/rec/<key>.bib`` answers the record's BibTeX.
- Crossref: ``GET {crossref}/works/{doi}`` answers ``{"status": "ok", "message": {work}}``;
  ``GET {crossref}/works?query.bibliographic=…&rows=…`` answers ``{"message": {"items": […]}}``.

Every call sends a User-Agent naming papershelf and, when set, the contact address
(``PAPERSHELF_CONTACT_EMAIL``), as Crossref's polite pool and DBLP ask. Spacing calls is the
caller's job (``services.published``).
"""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

from papershelf import __version__, remote
from papershelf.domain.identifiers import normalize_doi, try_arxiv_id

MAX_BODY = 20 << 20
S2_BATCH_MAX = 500
S2_FIELDS = ("title,venue,year,authors,externalIds,publicationVenue,journal,publicationTypes,"
             "publicationDate")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.", re.IGNORECASE)


class CatalogueError(Exception):
    """The call did not give a usable answer."""


class CatalogueUnavailable(CatalogueError, remote.Unavailable):
    """The service is down, overloaded, rate limiting or unreachable: retry later."""


class CatalogueBadAnswer(CatalogueError):
    """The answer is not what the service documents (HTML, truncated JSON, a bad status)."""


def user_agent(contact_email: str | None) -> str:
    mail = f"; mailto:{contact_email}" if contact_email else ""
    return f"papershelf/{__version__} (published-version check{mail})"


@dataclass
class Client:
    """One service's address and how to call it."""

    name: str
    base_url: str
    timeout: float = 20.0
    contact_email: str | None = None
    api_key: str | None = None
    calls: int = 0

    def url(self, path: str, params: dict | None = None) -> str:
        url = self.base_url.rstrip("/") + path
        return url + ("?" + urlencode(params) if params else "")

    def request(self, url: str, *, body: bytes | None = None, accept: str = "application/json"):
        headers = {"User-Agent": user_agent(self.contact_email), "Accept": accept}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["x-api-key"] = self.api_key
        request = urllib.request.Request(url, data=body, headers=headers,
                                         method="POST" if body is not None else "GET")
        self.calls += 1
        status, data, headers = remote.call(request, self.timeout, name=self.name,
                                            max_body=MAX_BODY, unavailable=CatalogueUnavailable)
        if remote.is_error(status):
            if status == 404:
                return None, ""
            if status == 429 or status >= 500:
                raise CatalogueUnavailable(
                    f"{self.name} answered HTTP {status}", status=status,
                    retry_after=remote.retry_after(headers.get("Retry-After")))
            raise CatalogueBadAnswer(f"{self.name} answered HTTP {status}")
        kind = headers.get("Content-Type", "")
        if len(data) > MAX_BODY:
            raise CatalogueBadAnswer(f"{self.name}'s answer is too large")
        if status != 200:
            raise CatalogueBadAnswer(f"{self.name} answered HTTP {status}")
        return data, kind

    def json(self, url: str, *, body: bytes | None = None):
        data, kind = self.request(url, body=body)
        if data is None:
            return None
        if "json" not in kind.lower():
            raise CatalogueBadAnswer(f"{self.name} answered {kind or 'no type'}, not JSON")
        try:
            return json.loads(data)
        except (ValueError, UnicodeDecodeError) as e:
            raise CatalogueBadAnswer(f"{self.name}'s JSON is malformed: {str(e)[:100]}") from None


# ---- what the services answer, read ---------------------------------------------------------


@dataclass
class Record:
    """A catalogue's record of a work: what the rule compares and what an export cites."""

    source: str  # dblp | crossref | semantic_scholar
    title: str
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str | None = None  # as the catalogue names it (short on DBLP)
    entry_type: str | None = None  # inproceedings | article
    booktitle: str | None = None
    journal: str | None = None
    volume: str | None = None
    number: str | None = None
    pages: str | None = None
    publisher: str | None = None
    doi: str | None = None
    dblp: str | None = None  # the DBLP key
    arxiv_id: str | None = None  # the preprint the catalogue links this record to


@dataclass
class S2Paper:
    arxiv_id: str
    title: str
    authors: list[str]
    year: int | None
    venue: str | None
    dblp: str | None
    doi: str | None
    types: list[str]


def _int(value) -> int | None:
    try:
        return int(str(value)[:4])
    except (TypeError, ValueError):
        return None


def _doi(value) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        doi = normalize_doi(value)
    except ValueError:
        return None
    return None if _ARXIV_DOI.match(doi) else doi


def _str(value) -> str | None:
    return " ".join(value.split()) or None if isinstance(value, str) else None


def read_s2_paper(item) -> S2Paper | None:
    if not isinstance(item, dict):
        return None
    ids = item.get("externalIds") if isinstance(item.get("externalIds"), dict) else {}
    arxiv = try_arxiv_id(str(ids.get("ArXiv") or ""))
    if not arxiv:
        return None
    venue = item.get("publicationVenue") if isinstance(item.get("publicationVenue"), dict) else {}
    authors = [a.get("name") for a in item.get("authors") or [] if isinstance(a, dict)
               and isinstance(a.get("name"), str)]
    dblp = _str(ids.get("DBLP"))
    return S2Paper(arxiv_id=arxiv, title=_str(item.get("title")) or "", authors=authors,
                   year=_int(item.get("year")),
                   venue=_str(venue.get("name")) or _str(item.get("venue")),
                   dblp=dblp, doi=_doi(ids.get("DOI")),
                   types=[t for t in item.get("publicationTypes") or [] if isinstance(t, str)])


def s2_batch(client: Client, arxiv_ids: list[str]) -> dict[str, S2Paper]:
    """Semantic Scholar's papers for up to 500 arXiv ids, by arXiv id (unknown ids left out)."""
    if len(arxiv_ids) > S2_BATCH_MAX:
        raise ValueError(f"at most {S2_BATCH_MAX} ids a call")
    body = json.dumps({"ids": [f"arXiv:{i}" for i in arxiv_ids]}).encode()
    answer = client.json(client.url("/graph/v1/paper/batch", {"fields": S2_FIELDS}), body=body)
    if answer is None:
        return {}
    if not isinstance(answer, list):
        raise CatalogueBadAnswer("Semantic Scholar's batch answer is not a list")
    out = {}
    for item in answer:
        paper = read_s2_paper(item)
        if paper is not None and paper.arxiv_id in arxiv_ids:
            out[paper.arxiv_id] = paper
    return out


_DBLP_TYPES = {"Conference and Workshop Papers": "inproceedings",
               "Journal Articles": "article"}


def _dblp_authors(info: dict) -> list[str]:
    authors = (info.get("authors") or {}).get("author") if isinstance(info.get("authors"),
                                                                       dict) else None
    if isinstance(authors, dict):
        authors = [authors]
    out = []
    for a in authors or []:
        name = a.get("text") if isinstance(a, dict) else a
        if isinstance(name, str):
            out.append(re.sub(r"\s+\d{4}$", "", name))  # DBLP's homonym number: "Wei Wang 0001"
    return out


def read_dblp_hit(hit) -> Record | None:
    info = hit.get("info") if isinstance(hit, dict) else None
    if not isinstance(info, dict) or not isinstance(info.get("title"), str):
        return None
    venue = info.get("venue")
    if isinstance(venue, list):
        venue = " ".join(v for v in venue if isinstance(v, str))
    kind = _DBLP_TYPES.get(info.get("type"))
    return Record(source="dblp", title=info["title"], authors=_dblp_authors(info),
                  year=_int(info.get("year")), venue=_str(venue), entry_type=kind,
                  volume=_str(info.get("volume")), number=_str(info.get("number")),
                  pages=_str(info.get("pages")), doi=_doi(info.get("doi")),
                  dblp=_str(info.get("key")))


def dblp_search(client: Client, query: str, *, hits: int = 10,
                first: int = 0) -> tuple[list[Record], int]:
    """DBLP's publications for ``query``: the records of one page and the total."""
    answer = client.json(client.url("/search/publ/api", {"q": query, "format": "json",
                                                         "h": hits, "f": first}))
    try:
        found = answer["result"]["hits"]
        total = int(found.get("@total", 0))
        items = found.get("hit") or []
    except (TypeError, KeyError, ValueError, AttributeError):
        raise CatalogueBadAnswer("DBLP's answer has no result.hits") from None
    return [r for r in (read_dblp_hit(h) for h in items) if r is not None], total


def dblp_bibtex(client: Client, key: str) -> str | None:
    """The BibTeX of DBLP's record ``key`` (None: DBLP has no such record)."""
    data, kind = client.request(client.url(f"/rec/{quote(key, safe='/')}.bib"),
                                accept="application/x-bibtex, text/plain")
    if data is None:
        return None
    text = data.decode("utf-8", "replace")
    if "html" in kind.lower() or not text.lstrip().startswith("@"):
        raise CatalogueBadAnswer("DBLP's record is not BibTeX")
    if not text.rstrip().endswith("}") or text.count("{") != text.count("}"):
        raise CatalogueBadAnswer("DBLP's record is cut short")
    return text


_CROSSREF_TYPES = {"proceedings-article": "inproceedings", "journal-article": "article"}


def _first(values) -> str | None:
    if isinstance(values, list):
        for v in values:
            if isinstance(v, str) and v.strip():
                return " ".join(v.split())
    return _str(values)


def _crossref_year(work: dict) -> int | None:
    for name in ("published-print", "published-online", "issued", "published"):
        parts = (work.get(name) or {}).get("date-parts") if isinstance(work.get(name), dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = _int(parts[0][0])
            if year:
                return year
    return None


def read_crossref_work(work) -> Record | None:
    if not isinstance(work, dict):
        return None
    title = _first(work.get("title"))
    if not title:
        return None
    kind = _CROSSREF_TYPES.get(work.get("type"))
    container = _first(work.get("container-title"))
    authors = []
    for a in work.get("author") or []:
        if isinstance(a, dict):
            name = " ".join(p for p in (a.get("given"), a.get("family")) if isinstance(p, str))
            if name or isinstance(a.get("name"), str):
                authors.append(name or a["name"])
    return Record(source="crossref", title=title, authors=authors, year=_crossref_year(work),
                  venue=container, entry_type=kind,
                  booktitle=container if kind == "inproceedings" else None,
                  journal=container if kind == "article" else None,
                  volume=_str(work.get("volume")), number=_str(work.get("issue")),
                  pages=_str(work.get("page")) or _str(work.get("article-number")),
                  publisher=_str(work.get("publisher")),
                  doi=_doi(work.get("DOI")))


def crossref_work(client: Client, doi: str) -> Record | None:
    """Crossref's record of ``doi`` (None: Crossref does not know it)."""
    answer = client.json(client.url(f"/works/{quote(doi, safe='/()')}"))
    if answer is None:
        return None
    if not isinstance(answer, dict) or not isinstance(answer.get("message"), dict):
        raise CatalogueBadAnswer("Crossref's answer has no message")
    return read_crossref_work(answer["message"])


CROSSREF_BATCH_MAX = 50


def crossref_works(client: Client, dois: list[str]) -> dict[str, Record]:
    """Crossref's records of up to 50 DOIs in one call (``works?filter=doi:…,doi:…``), by
    lower-case DOI; the DOIs it does not know are left out."""
    if len(dois) > CROSSREF_BATCH_MAX:
        raise ValueError(f"at most {CROSSREF_BATCH_MAX} DOIs a call")
    answer = client.json(client.url("/works", {"filter": ",".join(f"doi:{d}" for d in dois),
                                               "rows": len(dois)}))
    try:
        items = answer["message"]["items"]
    except (TypeError, KeyError):
        raise CatalogueBadAnswer("Crossref's answer has no message.items") from None
    out = {}
    for work in items or []:
        record = read_crossref_work(work)
        if record is not None and record.doi:
            out[record.doi.lower()] = record
    return out


def crossref_search(client: Client, query: str, rows: int = 5) -> list[Record]:
    """Crossref's bibliographic search for ``query``: its first ``rows`` records."""
    answer = client.json(client.url("/works", {"query.bibliographic": query, "rows": rows}))
    try:
        items = answer["message"]["items"]
    except (TypeError, KeyError):
        raise CatalogueBadAnswer("Crossref's answer has no message.items") from None
    return [r for r in (read_crossref_work(w) for w in items or []) if r is not None]
