/**
 * A paper's identities: the `scheme:value` strings every page, PDF and file of it leads to, the
 * rule of papershelf.domain.identities (the same cases: tests/shared/identities.json).
 *
 * - `doi:<DOI>` lower-cased (ASCII), percent-decoded, without any resolver's address
 *   (normalizeDoi); the DOI arXiv mints is `arxiv:` instead;
 * - `arxiv:<id>` without version; `openreview:<forum id>`, `acl:<anthology id>`, `pmid:<digits>`,
 *   `pmcid:PMC<digits>`;
 * - the site's own id where its addresses show no DOI: `neurips:<hash>`, `pmlr:<volume>/<key>`,
 *   `cvf:<paper file name stem>`, `ieee:<arnumber>`, `pii:<PII>`, `s2:<Semantic Scholar id>`;
 * - `url:<normalizeUrl form>` for an address that names none of these.
 * A landing page and its PDF give the same identity. Pure: no DOM, no chrome.*.
 */

import { normalizeArxivId, normalizeUrl, unquote, unquotePlus } from "./ids.js";

/** Strongest first: the order identitiesOf answers in. */
export const SCHEMES = ["arxiv", "doi", "openreview", "acl", "pmid", "pmcid", "neurips", "pmlr", "cvf", "ieee", "pii", "s2", "url"];
const RANK = new Map(SCHEMES.map((s, i) => [s, i]));

const SPACE = "[\\x00-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";
const TRIM = new RegExp(`^${SPACE}+|${SPACE}+$`, "g");

function trim(text) {
  return text.replace(TRIM, "");
}

function asciiLower(text) {
  return text.replace(/[A-Z]+/g, (c) => c.toLowerCase());
}

// ---- DOIs: normalizeDoi, the rule of papershelf.domain.identifiers.normalize_doi -------------

const DOI_ANY_PREFIX = /^(?:(?:https?:\/\/)?(?:[a-z0-9-]+\.)*doi(?:\.[a-z0-9-]+)*\.[a-z]+\/+|info:doi\/|urn:doi:|doi:?[ \t\n\r\f\v]*)/i;
const DOI = new RegExp(`^10\\.[0-9]{4,9}/(?:(?!${SPACE})[\\s\\S])+$`);
const SHORT_DOI = /^10\/[a-z0-9]+$/;

/**
 * `https://doi.org/10.1145/ABC` → `10.1145/abc`; a shortDOI `10/fqd6hj` as it is; the DOI behind
 * any resolver's address, `doi:`, `info:doi/`, `urn:doi:`, percent-encoded or not. Null when it
 * is no DOI.
 */
export function normalizeDoi(input) {
  if (typeof input !== "string") return null;
  let text = unquote(trim(input));
  text = trim(text).replace(DOI_ANY_PREFIX, "");
  text = asciiLower(trim(unquote(text)));
  return DOI.test(text) || SHORT_DOI.test(text) ? text : null;
}

// ---- identities ----------------------------------------------------------------------------

const PARTS = /^([a-z]+):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?$/;
const DOI_HOST = /^(?:[a-z0-9-]+\.)*doi(?:\.[a-z0-9-]+)*\.[a-z]+$/;
const OPENREVIEW_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ACL_NEW = /^[0-9]{4}\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[0-9]+$/;
const ACL_OLD = /^[A-Za-z][0-9]{2}-[0-9]{4}$/;
const ACL_PATH = /^\/(?:anthology\/|papers\/[A-Za-z]\/[A-Za-z][0-9]{2}\/)?([0-9]{4}\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[0-9]+|[A-Za-z][0-9]{2}-[0-9]{4})(?:v[0-9]+)?(?:\.pdf|\.bib|\.xml)?\/?$/;
const DIGITS = /^[0-9]{1,12}$/;
const PMCID = /^(?:pmc)?([0-9]{1,12})$/i;
const NEURIPS_PATH = /^\/paper(?:_files\/paper)?\/[0-9]{4}\/(?:hash|file)\/([0-9a-fA-F]{32})-(?:Abstract|Paper)(?:-[A-Za-z_]+)?\.(?:html|pdf)$/;
const HASH32 = /^[0-9a-f]{32}$/;
const PMLR_PATH = /^\/(?:proceedings\/papers\/)?(v[0-9]+)\/([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*?)(?:\.html|\.pdf|\/([A-Za-z0-9_-]+)\.pdf)$/;
const PMLR_ID = /^(v[0-9]+)\/([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)$/;
const CVF_PATH = /^\/content[\s\S]*\/(?:html|papers)\/([A-Za-z0-9_.-]+_paper)\.(?:html|pdf)$/;
const CVF_ID = /^[A-Za-z0-9_.-]+_paper$/;
const IEEE_PATH = /^(?:\/(?:abstract\/)?document\/([0-9]{1,12})(?:\/[\s\S]*)?|\/iel[0-9]+\/[0-9]+\/[0-9]+\/([0-9]{1,12})\.pdf)$/;
const PII_PATH = /^\/(?:science\/article\/(?:abs\/)?|retrieve\/|reader\/sd\/|content\/article\/)pii\/([^/]+)(?:\/[\s\S]*)?$/;
const PII_PID = /^1-s2\.0-([0-9A-Za-z]+)-main\.pdf$/;
const PII = /^S?[0-9]{15}[0-9X]$/;
const S2_PATH = /^\/paper\/(?:[^/]+\/)?([0-9a-fA-F]{40})\/?$/;
const S2_ID = /^[0-9a-f]{40}$/;
const NATURE_PATH = /^\/articles\/([A-Za-z0-9._-]+?)(?:\.pdf)?\/?$/;
const BIORXIV_PATH = /^\/content\/(?:(?:bio|med)rxiv\/)?(?:early\/[0-9]{4}\/[0-9]{2}\/[0-9]{2}\/)?(?:10\.1101\/)?([0-9]{4}\.[0-9]{2}\.[0-9]{2}\.[0-9]{6,}|[0-9]{6,})(?:v[0-9]+)?(?:[./][\s\S]*)?$/;
const SSRN_PATH = /^\/abstract=([0-9]{1,12})$/;
const ARXIV_MIRROR_PATH = /^\/(?:abs|html|pdf|papers|arxiv)\/([\s\S]+?)\/?$/;
// A DOI in an address's path: from the first "10.<digits>/" that starts a segment, less the page
// kind a site writes after it.
const PATH_DOI = /\/(?:info:doi\/|doi:)?(10\.[0-9]{4,9}\/[\s\S]+)/i;
const DOI_TAIL = /(?:\.full\.pdf|\.full|\.pdf|\.abstract|\.html|\/(?:full|pdf|epdf|abstract|abs|fulltext|meta|html|summary|references|figures|authors|metrics|citations|reader))+\/*$|\/+$/i;
const QUERY_DOI_NAMES = new Set(["doi", "id", "rft_id", "rft.doi", "articleid"]);
const PMC_ARTICLE = /^\/(?:pmc\/)?articles\/(?:PMC\/)?(PMC[0-9]{1,12})(?:\/|$)/;
const PMID_PATH = /^\/(?:pubmed|pmc\/articles\/pmid|(?:article|abstract)\/MED)\/([0-9]{1,12})\/?$/;
const EUROPEPMC_PMC = /^\/(?:article|abstract)\/PMC\/(PMC[0-9]{1,12})\/?$/;

function hostOf(authority) {
  const host = authority.slice(authority.lastIndexOf("@") + 1).split(":")[0];
  return host.startsWith("www.") ? host.slice(4) : host;
}

/** A normalized query's parameters: the first value of each name. */
function paramsOf(query) {
  const out = new Map();
  if (!query) return out;
  for (const piece of query.split("&")) {
    const eq = piece.indexOf("=");
    const name = unquotePlus(eq < 0 ? piece : piece.slice(0, eq));
    if (!out.has(name)) out.set(name, unquotePlus(eq < 0 ? "" : piece.slice(eq + 1)));
  }
  return out;
}

const number = (digits) => String(Number(digits));

/** `doi:<DOI>` (`arxiv:<id>` for the DOI arXiv mints), or null when it is no DOI. */
export function doiIdentity(value) {
  const doi = normalizeDoi(value);
  if (!doi) return null;
  const arxivId = doi.startsWith("10.48550/") ? normalizeArxivId(doi) : null;
  return arxivId ? `arxiv:${arxivId}` : `doi:${doi}`;
}

function arxiv(value) {
  const id = normalizeArxivId(value);
  return id ? `arxiv:${id}` : null;
}

function pathDoi(path) {
  const m = PATH_DOI.exec(path);
  return m ? doiIdentity(m[1].replace(DOI_TAIL, "")) : null;
}

function pii(value) {
  const text = value.replace(/[^0-9A-Za-z]/g, "").toUpperCase();
  return PII.test(text) ? `pii:${text}` : null;
}

/** The identity of an ACL Anthology id, or null. */
export function aclIdentity(value) {
  if (ACL_NEW.test(value)) return `acl:${value}`;
  if (ACL_OLD.test(value)) return `acl:${value[0].toUpperCase()}${value.slice(1)}`;
  return null;
}

/** The identity a known site's address gives, or null. */
function site(host, path, params, norm) {
  let m;
  if (DOI_HOST.test(host) || host === "hdl.handle.net") return doiIdentity(unquote(path.slice(1)));
  if (host === "arxiv.org" || host === "export.arxiv.org" || host === "alphaxiv.org") return arxiv(norm);
  if (["ar5iv.labs.arxiv.org", "ar5iv.org", "huggingface.co", "semanticscholar.org"].includes(host)) {
    m = ARXIV_MIRROR_PATH.exec(path);
    if (m && (host !== "huggingface.co" || path.startsWith("/papers/"))
      && (host !== "semanticscholar.org" || path.startsWith("/arxiv/"))) return arxiv(m[1]);
    if (host === "semanticscholar.org" && (m = S2_PATH.exec(path))) return `s2:${asciiLower(m[1])}`;
    return null;
  }
  if (host === "openreview.net") {
    const id = params.get("id") || "";
    return ["/forum", "/pdf", "/attachment"].includes(path) && OPENREVIEW_ID.test(id) ? `openreview:${id}` : null;
  }
  if (host === "aclanthology.org" || host === "aclweb.org") {
    m = ACL_PATH.exec(path);
    return m ? aclIdentity(m[1]) : null;
  }
  if (host === "pubmed.ncbi.nlm.nih.gov") {
    m = /^\/([0-9]{1,12})\/?$/.exec(path);
    return m ? `pmid:${number(m[1])}` : null;
  }
  if (host === "ncbi.nlm.nih.gov" || host === "pmc.ncbi.nlm.nih.gov" || host === "europepmc.org") {
    if ((m = PMC_ARTICLE.exec(path))) return `pmcid:PMC${number(m[1].slice(3))}`;
    if ((m = PMID_PATH.exec(path))) return `pmid:${number(m[1])}`;
    if ((m = EUROPEPMC_PMC.exec(path))) return `pmcid:PMC${number(m[1].slice(3))}`;
    return null;
  }
  if (host === "proceedings.neurips.cc" || host === "papers.nips.cc" || host === "papers.neurips.cc") {
    m = NEURIPS_PATH.exec(path);
    return m ? `neurips:${asciiLower(m[1])}` : null;
  }
  if ((host === "proceedings.mlr.press" || host === "jmlr.org") && (m = PMLR_PATH.exec(path))) {
    if (host === "jmlr.org" && !path.startsWith("/proceedings/papers/")) return null;
    if (m[3] !== undefined && m[3] !== m[2]) return null; // a supplement (key-supp.pdf), not the paper
    return `pmlr:${m[1]}/${m[2]}`;
  }
  if (host === "openaccess.thecvf.com") {
    m = CVF_PATH.exec(path);
    return m ? `cvf:${m[1]}` : null;
  }
  if (host === "ieeexplore.ieee.org") {
    if ((m = IEEE_PATH.exec(path))) return `ieee:${number(m[1] || m[2])}`;
    const arnumber = params.get("arnumber") || "";
    return DIGITS.test(arnumber) ? `ieee:${number(arnumber)}` : null;
  }
  if (["sciencedirect.com", "linkinghub.elsevier.com", "reader.elsevier.com", "api.elsevier.com"].includes(host)) {
    if ((m = PII_PATH.exec(path))) return pii(unquote(m[1]));
    m = PII_PID.exec(params.get("pid") || "");
    return m ? pii(m[1]) : null;
  }
  if (host === "nature.com") {
    m = NATURE_PATH.exec(path);
    return m ? doiIdentity(`10.1038/${m[1]}`) : null;
  }
  if (host === "biorxiv.org" || host === "medrxiv.org") {
    m = BIORXIV_PATH.exec(path);
    return m ? doiIdentity(`10.1101/${m[1]}`) : null;
  }
  if (host === "papers.ssrn.com" || host === "ssrn.com") {
    let id = params.get("abstract_id") || "";
    if (!DIGITS.test(id)) {
      m = SSRN_PATH.exec(path);
      id = m ? m[1] : "";
    }
    return id ? `doi:10.2139/ssrn.${number(id)}` : null;
  }
  return null;
}

/**
 * The identities an address gives ([]: it is no http(s) address): the paper's id when the
 * address shows it, else `url:<normalizeUrl(url)>`.
 */
export function identitiesOfUrl(url) {
  const norm = normalizeUrl(url);
  if (norm === null) return [];
  const [, scheme, authority, path, query] = PARTS.exec(norm);
  const params = paramsOf(query || "");
  let found = null;
  if (scheme !== "ftp") {
    found = site(hostOf(authority), path, params, norm) || pathDoi(unquote(path));
    if (!found) {
      for (const [name, value] of params) {
        if (QUERY_DOI_NAMES.has(asciiLower(name)) && (found = doiIdentity(value))) break;
      }
    }
  }
  return [found || `url:${norm}`];
}

/**
 * An identity as a page or a person writes it (`doi:10.1145/ABC`, `arxiv:2603.01234v2`,
 * `pmcid:7092803`…) in its one form, or null when it is none.
 */
export function normalizeIdentity(value) {
  if (typeof value !== "string") return null;
  const text = trim(value);
  const colon = text.indexOf(":");
  if (colon < 0) return null;
  const scheme = asciiLower(text.slice(0, colon));
  let rest = trim(text.slice(colon + 1));
  if (!rest) return null;
  switch (scheme) {
    case "doi":
      return doiIdentity(rest);
    case "arxiv":
      return arxiv(rest);
    case "url":
      return identitiesOfUrl(rest)[0] || null;
    case "openreview":
      return OPENREVIEW_ID.test(rest) ? `openreview:${rest}` : null;
    case "acl":
      return aclIdentity(rest);
    case "pmid":
    case "ieee":
      return DIGITS.test(rest) ? `${scheme}:${number(rest)}` : null;
    case "pmcid": {
      const m = PMCID.exec(rest);
      return m ? `pmcid:PMC${number(m[1])}` : null;
    }
    case "neurips":
      rest = asciiLower(rest);
      return HASH32.test(rest) ? `neurips:${rest}` : null;
    case "pmlr":
      return PMLR_ID.test(rest) ? `pmlr:${rest}` : null;
    case "cvf":
      return CVF_ID.test(rest) ? `cvf:${rest}` : null;
    case "pii":
      return pii(rest);
    case "s2":
      rest = asciiLower(rest);
      return S2_ID.test(rest) ? `s2:${rest}` : null;
    default:
      return null;
  }
}

/**
 * Every identity a paper's fields give, strongest first, each once ({url, doi, arxivId, pdfUrl,
 * extraUrls}). Fields that name nothing (no DOI, a junk address) give none.
 */
export function identitiesOf({ url = null, doi = null, arxivId = null, pdfUrl = null, extraUrls = [] } = {}) {
  const found = [];
  const a = arxivId ? arxiv(arxivId) : null;
  if (a) found.push(a);
  const d = doi ? doiIdentity(doi) : null;
  if (d) found.push(d);
  for (const address of [url, pdfUrl, ...extraUrls]) {
    if (address) found.push(...identitiesOfUrl(address));
  }
  return [...new Set(found)].sort((x, y) => RANK.get(x.split(":")[0]) - RANK.get(y.split(":")[0]));
}
