/**
 * arXiv identifiers: recognise them in any form a page shows (bare, `arXiv:` prefixed, arXiv
 * abs/pdf/html URLs, alphaXiv abs/overview links, arXiv DOIs, old style with or without subject
 * class) and give the normalized form the server keys papers by (no version; old style without
 * subject class). The rule is arXiv's scheme, the one papershelf.domain.identifiers implements:
 * tests/shared/identifiers.json states it with the cases both run.
 * Pure: no DOM, no chrome.*.
 */

// The archives that minted old-style ids (archive/YYMMNNN): every archive of arXiv's taxonomy that
// began before April 2007.
const OLD_ARCHIVES = new Set(
  `acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph cmp-lg
  comp-gas cond-mat cs dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph mtrl-th
  nlin nucl-ex nucl-th patt-sol physics plasm-ph q-alg q-bio quant-ph solv-int supr-con`.split(/\s+/),
);
// Old-style ids with a two-letter subject class: math.GT/0309136, cs.AI/0101001.
const SUBJECT_CLASS_ARCHIVES = new Set(["math", "cs", "nlin", "q-bio", "physics"]);
// Months as year * 100 + month: old style from arXiv's first paper to March 2007, new style after.
const OLD_STYLE_MONTHS = [199108, 200703];
const NEW_STYLE_FIRST_MONTH = 200704;
const FIVE_DIGITS_FROM = 201501;

const SPACE = "[ \\t\\n\\r\\f\\v\\u00a0\\ufeff]";
const TRIM = new RegExp(`^${SPACE}+|${SPACE}+$`, "g");
const VERSION = "(?:v([1-9][0-9]*))?";
const NEW_STYLE = new RegExp(`^([0-9]{2})([0-9]{2})\\.([0-9]{4,5})${VERSION}$`);
const OLD_STYLE = new RegExp(`^([A-Za-z]+(?:-[A-Za-z]+)?)(?:\\.([A-Za-z]{2}))?/([0-9]{2})([0-9]{2})([0-9]{3})${VERSION}$`);
const PREFIX = new RegExp(`^arxiv:${SPACE}*`, "i");
const PATH = "/(?:abs|pdf|html|format|overview)/([^?#]+?)(?:\\.pdf)?/?(?:[?#][\\s\\S]*)?$";
const ARXIV_URL = new RegExp(`^(?:https?://)?(?:(?:www\\.|export\\.)?arxiv\\.org|(?:www\\.)?alphaxiv\\.org)${PATH}`, "i");
const ROOT_PATH = new RegExp(`^${PATH}`, "i");
const DOI_PREFIX = new RegExp(`^(?:https?://(?:dx\\.)?doi\\.org/|doi:${SPACE}*)`, "i");
const ARXIV_DOI = /^10\.48550\/arxiv\.([\s\S]+)$/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const ID_HOSTS = new Set(["arxiv.org", "www.arxiv.org", "export.arxiv.org", "alphaxiv.org", "www.alphaxiv.org"]);

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

function version(v) {
  return v ? Number(v) : null;
}

/** A bare identifier (no URL, no prefix) as `{id, version}`, or null. */
function parseBare(text) {
  let m = NEW_STYLE.exec(text);
  if (m) {
    const month = (2000 + Number(m[1])) * 100 + Number(m[2]);
    if (Number(m[2]) < 1 || Number(m[2]) > 12 || month < NEW_STYLE_FIRST_MONTH) return null;
    if ((m[3].length === 5) !== (month >= FIVE_DIGITS_FROM) || !Number(m[3])) return null;
    return { id: `${m[1]}${m[2]}.${m[3]}`, version: version(m[4]) };
  }
  m = OLD_STYLE.exec(text);
  if (m) {
    const archive = m[1].toLowerCase();
    const month = ((m[3] >= "91" ? 1900 : 2000) + Number(m[3])) * 100 + Number(m[4]);
    if (!OLD_ARCHIVES.has(archive)) return null;
    if (m[2] && !SUBJECT_CLASS_ARCHIVES.has(archive)) return null;
    if (Number(m[4]) < 1 || Number(m[4]) > 12 || month < OLD_STYLE_MONTHS[0] || month > OLD_STYLE_MONTHS[1]) return null;
    if (!Number(m[5])) return null;
    return { id: `${archive}/${m[3]}${m[4]}${m[5]}`, version: version(m[6]) };
  }
  return null;
}

/** An absolute form (URL, `arXiv:` prefix, DOI or bare id), already trimmed. */
function parseAbsolute(text) {
  let m = ARXIV_URL.exec(text);
  if (m) return parseBare(safeDecode(m[1]));
  m = PREFIX.exec(text);
  if (m) return parseBare(text.slice(m[0].length));
  m = ARXIV_DOI.exec(text.replace(DOI_PREFIX, ""));
  return parseBare(m ? m[1] : text);
}

/**
 * Normalize anything that names an arXiv paper. Accepts `2603.01234`, `arXiv:2603.01234v2`,
 * `https://arxiv.org/abs/2603.01234v2`, `https://arxiv.org/pdf/2603.01234v1.pdf`,
 * `https://www.alphaxiv.org/overview/2603.01234`, `hep-th/9901001`, `math.GT/0309136`,
 * `10.48550/arXiv.2603.01234`. Relative links (`/abs/<id>`) are resolved against `base` when given.
 * Returns `{id, version}` (version a number or null) or null.
 */
export function parseArxivId(input, base) {
  if (typeof input !== "string") return null;
  const text = input.replace(TRIM, "");
  if (!text) return null;
  const parsed = parseAbsolute(text);
  if (parsed || !base || HAS_SCHEME.test(text)) return parsed;
  // A relative link. Root-relative ones on an arXiv or alphaXiv page skip URL parsing: a listing
  // of 600 papers has thousands of links.
  if (text.startsWith("/") && !text.startsWith("//") && ID_HOSTS.has(hostOf(base))) {
    const m = ROOT_PATH.exec(text);
    return m ? parseBare(safeDecode(m[1])) : null;
  }
  let href;
  try {
    href = new URL(text, base).href;
  } catch {
    return null;
  }
  return parseAbsolute(href);
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
