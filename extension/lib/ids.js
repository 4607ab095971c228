/**
 * arXiv identifiers: recognise them in any form a page shows (bare, `arXiv:` prefixed, arXiv
 * abs/pdf URLs, alphaXiv abs/overview links, old style with or without subject class) and give
 * the normalized form the server keys papers by (no version; old style without subject class).
 * Pure: no DOM, no chrome.*.
 */

const NEW_STYLE = /^(\d{4})\.(\d{4,5})(?:v(\d+))?$/;
// Old style: archive(.SUBJ)?/YYMMNNN, e.g. hep-th/9901001, math.GT/0309136v2.
const OLD_STYLE = /^([a-z]+(?:-[a-z]+)*)(?:\.[A-Za-z]{2})?\/(\d{7})(?:v(\d+))?$/;

const URL_PATH = /^\/(?:abs|pdf|overview|html|format)\/(.+?)(?:\.pdf)?\/?$/;
const ID_HOSTS = new Set(["arxiv.org", "www.arxiv.org", "export.arxiv.org", "alphaxiv.org", "www.alphaxiv.org"]);

const FAST_LINK = /^(?:https?:\/\/((?:www\.|export\.)?(?:arxiv\.org|alphaxiv\.org)))?(\/(?:abs|pdf|overview|html|format)\/[^?#]*)(?:[?#].*)?$/i;
const baseHosts = new Map();

function hostOf(base) {
  let host = baseHosts.get(base);
  if (host === undefined) {
    try {
      host = new URL(base).hostname.toLowerCase();
    } catch {
      host = "";
    }
    if (baseHosts.size > 100) baseHosts.clear();
    baseHosts.set(base, host);
  }
  return host;
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Parse a bare identifier (no URL) into `{id, version}`; null when it is not an arXiv id.
 * `version` is a number or null.
 */
function parseBare(text) {
  const s = text.trim().replace(/^arxiv:\s*/i, "");
  let m = NEW_STYLE.exec(s);
  if (m) {
    const month = Number(m[1].slice(2));
    if (month < 1 || month > 12) return null;
    // Five-digit sequence numbers only exist from 2015 (1501) on.
    if (m[2].length === 5 && Number(m[1]) < 1501) return null;
    if (m[2].length === 4 && Number(m[1]) >= 1501) return null;
    return { id: `${m[1]}.${m[2]}`, version: m[3] ? Number(m[3]) : null };
  }
  m = OLD_STYLE.exec(s);
  if (m) {
    const month = Number(m[2].slice(2, 4));
    if (month < 1 || month > 12) return null;
    return { id: `${m[1].toLowerCase()}/${m[2]}`, version: m[3] ? Number(m[3]) : null };
  }
  return null;
}

/**
 * Normalize anything that names an arXiv paper. Accepts `2603.01234`, `arXiv:2603.01234v2`,
 * `https://arxiv.org/abs/2603.01234v2`, `https://arxiv.org/pdf/2603.01234v1.pdf`,
 * `https://www.alphaxiv.org/overview/2603.01234`, `hep-th/9901001`, `math.GT/0309136`.
 * Relative links (`/abs/<id>`) are resolved against `base` when given.
 * Returns `{id, version}` or null.
 */
export function parseArxivId(input, base) {
  if (typeof input !== "string" || !input.trim()) return null;
  const text = input.trim();
  const bare = parseBare(text);
  if (bare) return bare;
  // Fast path for the links a listing is made of (absolute or root-relative), without URL
  // parsing: a page of 600 papers has thousands of links.
  const fast = FAST_LINK.exec(text);
  if (fast && (fast[1] || (base && ID_HOSTS.has(hostOf(base))))) {
    const m = URL_PATH.exec(safeDecode(fast[2]));
    return m ? parseBare(m[1]) : null;
  }
  let url;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (!ID_HOSTS.has(url.hostname.toLowerCase())) return null;
  const m = URL_PATH.exec(safeDecode(url.pathname));
  if (!m) return null;
  return parseBare(m[1]);
}

/** The normalized id (no version) or null. */
export function normalizeArxivId(input, base) {
  const parsed = parseArxivId(input, base);
  return parsed ? parsed.id : null;
}

/** The key a paper is known by on the page and in lookups: its arXiv id, else its URL. */
export function paperKey(paper) {
  return paper.arxiv_id || paper.url || null;
}

/** The canonical arXiv abstract URL for a normalized id. */
export function arxivAbsUrl(id) {
  return `https://arxiv.org/abs/${id}`;
}
