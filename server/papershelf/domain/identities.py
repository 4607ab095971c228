"""A paper's identities: the ``scheme:value`` strings every page, PDF and file of it leads to.

One paper has many addresses (its DOI's resolver, the publisher's landing page, its PDF, a
mirror); each address names it by one identity, and two addresses naming one identity are one
paper. The forms (``extension/lib/identities.js`` answers the same, against the same cases in
tests/shared/identities.json):

- ``doi:<DOI>`` lower-cased (ASCII), percent-decoded, without any resolver's address
  (``normalize_doi``, the one DOI rule); the DOI arXiv mints is ``arxiv:`` instead;
- ``arxiv:<id>`` without version (old style: ``arxiv:math/0309136``);
- ``openreview:<forum id>``, ``acl:<anthology id>``, ``pmid:<digits>``, ``pmcid:PMC<digits>``;
- the site's own id where its addresses show no DOI: ``neurips:<hash>``,
  ``pmlr:<volume>/<key>``, ``cvf:<paper file name stem>``, ``ieee:<arnumber>``,
  ``pii:<ScienceDirect PII, upper case, no punctuation>``, ``s2:<Semantic Scholar paper id>``;
- ``url:<normalize_url form>`` for an address that names none of these.

A landing page and its PDF give the same identity (``/doi/pdf/…``, ``.full.pdf``,
``/content/pdf/….pdf``, OpenReview's ``pdf?id=``, IEEE's ``stamp.jsp?arnumber=``, NeurIPS'
``-Paper.pdf``…).
"""

import re
from urllib.parse import unquote, unquote_plus

from papershelf.domain.identifiers import (
    _ASCII_LOWER,
    normalize_doi,
    trim_url_space,
    try_arxiv_id,
    url_parts,
)

# Strongest first: the order ``identities_of`` answers in.
SCHEMES = ("arxiv", "doi", "openreview", "acl", "pmid", "pmcid", "neurips", "pmlr", "cvf",
           "ieee", "pii", "s2", "url")
_RANK = {scheme: i for i, scheme in enumerate(SCHEMES)}

_A = re.ASCII
_DOI_HOST = re.compile(r"(?:[a-z0-9-]+\.)*doi(?:\.[a-z0-9-]+)*\.[a-z]+", _A)
_OPENREVIEW_ID = re.compile(r"[A-Za-z0-9_-]{1,64}", _A)
_ACL_NEW = re.compile(r"[0-9]{4}\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[0-9]+", _A)
_ACL_OLD = re.compile(r"[A-Za-z][0-9]{2}-[0-9]{4}", _A)
_ACL_PATH = re.compile(
    r"/(?:anthology/|papers/[A-Za-z]/[A-Za-z][0-9]{2}/)?"
    r"([0-9]{4}\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[0-9]+|[A-Za-z][0-9]{2}-[0-9]{4})"
    r"(?:v[0-9]+)?(?:\.pdf|\.bib|\.xml)?/?", _A)
_DIGITS = re.compile(r"[0-9]{1,12}", _A)
_PMCID = re.compile(r"(?:pmc)?([0-9]{1,12})", _A | re.IGNORECASE)
_NEURIPS_PATH = re.compile(
    r"/paper(?:_files/paper)?/[0-9]{4}/(?:hash|file)/([0-9a-fA-F]{32})-(?:Abstract|Paper)"
    r"(?:-[A-Za-z_]+)?\.(?:html|pdf)", _A)
_HASH32 = re.compile(r"[0-9a-f]{32}", _A)
_PMLR_PATH = re.compile(
    r"/(?:proceedings/papers/)?(v[0-9]+)/([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*?)"
    r"(?:\.html|\.pdf|/([A-Za-z0-9_-]+)\.pdf)", _A)
_PMLR_ID = re.compile(r"(v[0-9]+)/([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)", _A)
_CVF_PATH = re.compile(r"/content.*/(?:html|papers)/([A-Za-z0-9_.-]+_paper)\.(?:html|pdf)",
                       _A | re.DOTALL)
_CVF_ID = re.compile(r"[A-Za-z0-9_.-]+_paper", _A)
_IEEE_PATH = re.compile(
    r"/(?:abstract/)?document/([0-9]{1,12})(?:/.*)?|/iel[0-9]+/[0-9]+/[0-9]+/([0-9]{1,12})\.pdf",
    _A | re.DOTALL)
_PII_PATH = re.compile(r"/(?:science/article/(?:abs/)?|retrieve/|reader/sd/|content/article/)"
                       r"pii/([^/]+)(?:/.*)?", _A | re.DOTALL)
_PII_PID = re.compile(r"1-s2\.0-([0-9A-Za-z]+)-main\.pdf", _A)
_PII = re.compile(r"S?[0-9]{15}[0-9X]", _A)
_PII_DROPPED = re.compile(r"[^0-9A-Za-z]", _A)
_S2_PATH = re.compile(r"/paper/(?:[^/]+/)?([0-9a-fA-F]{40})/?", _A)
_S2_ID = re.compile(r"[0-9a-f]{40}", _A)
_NATURE_PATH = re.compile(r"/articles/([A-Za-z0-9._-]+?)(?:\.pdf)?/?", _A)
_BIORXIV_PATH = re.compile(
    r"/content/(?:(?:bio|med)rxiv/)?(?:early/[0-9]{4}/[0-9]{2}/[0-9]{2}/)?(?:10\.1101/)?"
    r"([0-9]{4}\.[0-9]{2}\.[0-9]{2}\.[0-9]{6,}|[0-9]{6,})(?:v[0-9]+)?(?:[./].*)?", _A | re.DOTALL)
_SSRN_PATH = re.compile(r"/abstract=([0-9]{1,12})", _A)
_ARXIV_MIRROR_PATH = re.compile(r"/(?:abs|html|pdf|papers|arxiv)/(.+?)/?", _A | re.DOTALL)
# A DOI in an address's path: from the first "10.<digits>/" that starts a segment, less the page
# kind a site writes after it.
_PATH_DOI = re.compile(r"/(?:info:doi/|doi:)?(10\.[0-9]{4,9}/.+)", _A | re.DOTALL | re.IGNORECASE)
_DOI_TAIL = re.compile(
    r"(?:\.full\.pdf|\.full|\.pdf|\.abstract|\.html|/(?:full|pdf|epdf|abstract|abs|fulltext|"
    r"meta|html|summary|references|figures|authors|metrics|citations|reader))+/*\Z|/+\Z",
    _A | re.IGNORECASE)
_QUERY_DOI_NAMES = frozenset({"doi", "id", "rft_id", "rft.doi", "articleid"})
# A query that may hold one of those names: one of them, or an escape that could write one.
_MAY_NAME_A_DOI = re.compile(r"(?:^|&)(?:doi|id|rft_id|rft\.doi|articleid)=|[%+]",
                             _A | re.IGNORECASE)



def _host_of(authority: str) -> str:
    """A normalized address's host without its port or ``www.``."""
    host = authority.partition(":")[0]
    return host[4:] if host.startswith("www.") else host


def _params(query: str) -> dict[str, str]:
    """A normalized query's parameters: the first value of each name."""
    out: dict[str, str] = {}
    escaped = "%" in query or "+" in query
    for piece in query.split("&") if query else ():
        name, _, value = piece.partition("=")
        if escaped:
            name, value = unquote_plus(name), unquote_plus(value)
        out.setdefault(name, value)
    return out


def doi_identity(value: str) -> str | None:
    """``doi:<DOI>`` (``arxiv:<id>`` for the DOI arXiv mints), or None when it is no DOI."""
    try:
        doi = normalize_doi(value)
    except ValueError:
        return None
    arxiv_id = try_arxiv_id(doi) if doi.startswith("10.48550/") else None
    return f"arxiv:{arxiv_id}" if arxiv_id else f"doi:{doi}"


def _arxiv(value: str) -> str | None:
    arxiv_id = try_arxiv_id(value)
    return f"arxiv:{arxiv_id}" if arxiv_id else None


def _path_doi(path: str) -> str | None:
    m = _PATH_DOI.search(path)
    return doi_identity(_DOI_TAIL.sub("", m[1])) if m else None


def _pii(value: str) -> str | None:
    pii = _PII_DROPPED.sub("", value).upper()
    return f"pii:{pii}" if _PII.fullmatch(pii) else None


def _site(host: str, path: str, params: dict[str, str], norm: str) -> str | None:
    """The identity a known site's address gives, or None."""
    if _DOI_HOST.fullmatch(host) or host == "hdl.handle.net":
        return doi_identity(unquote(path[1:]))
    if host in ("arxiv.org", "export.arxiv.org", "alphaxiv.org"):
        return _arxiv(norm)
    if host in ("ar5iv.labs.arxiv.org", "ar5iv.org", "huggingface.co", "semanticscholar.org"):
        m = _ARXIV_MIRROR_PATH.fullmatch(path)
        if m and (host != "huggingface.co" or path.startswith("/papers/")) and (
                host != "semanticscholar.org" or path.startswith("/arxiv/")):
            return _arxiv(m[1])
        if host == "semanticscholar.org" and (m := _S2_PATH.fullmatch(path)):
            return f"s2:{m[1].translate(_ASCII_LOWER)}"
        return None
    if host == "openreview.net":
        value = params.get("id", "")
        if path in ("/forum", "/pdf", "/attachment") and _OPENREVIEW_ID.fullmatch(value):
            return f"openreview:{value}"
        return None
    if host in ("aclanthology.org", "aclweb.org"):
        m = _ACL_PATH.fullmatch(path)
        return acl_identity(m[1]) if m else None
    if host == "pubmed.ncbi.nlm.nih.gov":
        m = re.fullmatch(r"/([0-9]{1,12})/?", path, _A)
        return f"pmid:{int(m[1])}" if m else None
    if host in ("ncbi.nlm.nih.gov", "pmc.ncbi.nlm.nih.gov", "europepmc.org"):
        if m := re.match(r"/(?:pmc/)?articles/(?:PMC/)?(PMC[0-9]{1,12})(?:/|$)", path, _A):
            return f"pmcid:PMC{int(m[1][3:])}"
        if m := re.fullmatch(r"/(?:pubmed|pmc/articles/pmid|(?:article|abstract)/MED)/"
                             r"([0-9]{1,12})/?", path, _A):
            return f"pmid:{int(m[1])}"
        if m := re.fullmatch(r"/(?:article|abstract)/PMC/(PMC[0-9]{1,12})/?", path, _A):
            return f"pmcid:PMC{int(m[1][3:])}"
        return None
    if host in ("proceedings.neurips.cc", "papers.nips.cc", "papers.neurips.cc"):
        m = _NEURIPS_PATH.fullmatch(path)
        return f"neurips:{m[1].translate(_ASCII_LOWER)}" if m else None
    if host in ("proceedings.mlr.press", "jmlr.org") and (m := _PMLR_PATH.fullmatch(path)):
        if host == "jmlr.org" and not path.startswith("/proceedings/papers/"):
            return None
        if m[3] is not None and m[3] != m[2]:
            return None  # a supplement (key-supp.pdf), not the paper
        return f"pmlr:{m[1]}/{m[2]}"
    if host == "openaccess.thecvf.com":
        m = _CVF_PATH.fullmatch(path)
        return f"cvf:{m[1]}" if m else None
    if host == "ieeexplore.ieee.org":
        if m := _IEEE_PATH.fullmatch(path):
            return f"ieee:{int(m[1] or m[2])}"
        value = params.get("arnumber", "")
        return f"ieee:{int(value)}" if _DIGITS.fullmatch(value) else None
    if host in ("sciencedirect.com", "linkinghub.elsevier.com", "reader.elsevier.com",
                "api.elsevier.com"):
        if m := _PII_PATH.fullmatch(path):
            return _pii(unquote(m[1]))
        m = _PII_PID.fullmatch(params.get("pid", ""))
        return _pii(m[1]) if m else None
    if host == "nature.com":
        m = _NATURE_PATH.fullmatch(path)
        return doi_identity(f"10.1038/{m[1]}") if m else None
    if host in ("biorxiv.org", "medrxiv.org"):
        m = _BIORXIV_PATH.fullmatch(path)
        return doi_identity(f"10.1101/{m[1]}") if m else None
    if host in ("papers.ssrn.com", "ssrn.com"):
        value = params.get("abstract_id", "")
        if not _DIGITS.fullmatch(value):
            m = _SSRN_PATH.fullmatch(path)
            value = m[1] if m else ""
        return f"doi:10.2139/ssrn.{int(value)}" if value else None
    return None


def resolver_doi(url: str | None) -> str | None:
    """The DOI a DOI resolver's address (``https://doi.org/…``, ``http://dx.doi.org/…``) names,
    or None: what a paper whose address is one is stored with as its DOI."""
    try:
        _, authority, path, _ = url_parts(url)
    except ValueError:
        return None
    host = _host_of(authority)
    if not (_DOI_HOST.fullmatch(host) or host == "hdl.handle.net"):
        return None
    found = doi_identity(unquote(path[1:]))
    return found[4:] if found and found.startswith("doi:") else None


def identities_of_url(url: str | None) -> list[str]:
    """The identities an address gives (``[]``: it is no http(s) address): the paper's id when
    the address shows it, else ``url:<normalize_url(url)>``."""
    found = url_identity(url)
    return [found[1]] if found else []


def url_identity(url: str | None) -> tuple[str, str] | None:
    """``(normalize_url(url), its identity)``, or None when it is no http(s) address."""
    try:
        scheme, authority, path, query = url_parts(url)
    except ValueError:
        return None
    norm = f"{scheme}://{authority}{path}" + (f"?{query}" if query else "")
    if scheme == "ftp":
        return norm, f"url:{norm}"
    params = _params(query)
    found = _site(_host_of(authority), path, params, norm)
    if found is None:
        found = _path_doi(unquote(path)) if "10." in path or "%" in path else None
        if found is None and query and _MAY_NAME_A_DOI.search(query):
            for name, value in params.items():
                if name.translate(_ASCII_LOWER) in _QUERY_DOI_NAMES:
                    if found := doi_identity(value):
                        break
    return norm, found or f"url:{norm}"


def acl_identity(value: str) -> str | None:
    if _ACL_NEW.fullmatch(value):
        return f"acl:{value}"
    if _ACL_OLD.fullmatch(value):
        return f"acl:{value[0].upper()}{value[1:]}"
    return None


def normalize_identity(value: str) -> str | None:
    """An identity as a page or a person writes it (``doi:10.1145/ABC``,
    ``arxiv:2603.01234v2``, ``pmcid:7092803``…) in its one form, or None when it is none."""
    if not isinstance(value, str):
        return None
    scheme, sep, rest = trim_url_space(value).partition(":")
    scheme = scheme.translate(_ASCII_LOWER)
    rest = trim_url_space(rest)
    if not sep or not rest:
        return None
    if scheme == "doi":
        return doi_identity(rest)
    if scheme == "arxiv":
        return _arxiv(rest)
    if scheme == "url":
        found = identities_of_url(rest)
        return found[0] if found else None
    if scheme == "openreview":
        return f"openreview:{rest}" if _OPENREVIEW_ID.fullmatch(rest) else None
    if scheme == "acl":
        return acl_identity(rest)
    if scheme in ("pmid", "ieee"):
        return f"{scheme}:{int(rest)}" if _DIGITS.fullmatch(rest) else None
    if scheme == "pmcid":
        m = _PMCID.fullmatch(rest)
        return f"pmcid:PMC{int(m[1])}" if m else None
    if scheme == "neurips":
        rest = rest.translate(_ASCII_LOWER)
        return f"neurips:{rest}" if _HASH32.fullmatch(rest) else None
    if scheme == "pmlr":
        return f"pmlr:{rest}" if _PMLR_ID.fullmatch(rest) else None
    if scheme == "cvf":
        return f"cvf:{rest}" if _CVF_ID.fullmatch(rest) else None
    if scheme == "pii":
        return _pii(rest)
    if scheme == "s2":
        rest = rest.translate(_ASCII_LOWER)
        return f"s2:{rest}" if _S2_ID.fullmatch(rest) else None
    return None


def identities_of(url: str | None = None, doi: str | None = None, arxiv_id: str | None = None,
                  pdf_url: str | None = None, extra_urls=()) -> list[str]:
    """Every identity a paper's fields give, strongest first, each once. Fields that name
    nothing (no DOI, a junk address) give none."""
    found = []
    if arxiv_id and (a := _arxiv(arxiv_id)):
        found.append(a)
    if doi and (d := doi_identity(doi)):
        found.append(d)
    for address in (url, pdf_url, *extra_urls):
        if address:
            found += identities_of_url(address)
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda i: _RANK[i.partition(":")[0]])
