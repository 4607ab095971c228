/**
 * arXiv identifiers: recognise them in any form a page shows (bare, `arXiv:` prefixed, arXiv
 * abs/pdf/html URLs, alphaXiv abs/overview links, arXiv DOIs, old style with or without subject
 * class) and give the normalized form the server keys papers by (no version; old style without
 * subject class). The rule is arXiv's scheme, the one papershelf.domain.identifiers implements:
 * tests/shared/identifiers.json states it with the cases both run.
 *
 * Also the other forms of a paper's identity both sides need, each held to the server's by the
 * same file: a URL's canonical form (normalizeUrl, as papershelf.domain.identifiers.normalize_url:
 * a page's address with a fragment or tracking parameters names the paper its canonical URL does),
 * an arXiv paper's abstract page (arxivAbsUrl), and the key a paper is known by on the page and in
 * lookups (paperKey).
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

/** The abstract page of an arXiv paper (its normalized id): what its `url` is when a page gives none. */
export function arxivAbsUrl(arxivId) {
  return `https://arxiv.org/abs/${arxivId}`;
}

// ---- URLs: normalizeUrl, the rule of papershelf.domain.identifiers.normalize_url -------------

const URL_SCHEMES = new Set(["http", "https", "ftp"]);
const DEFAULT_PORTS = { http: "80", https: "443" };
const URL_SPACE = "[\\x00-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";
const URL_TRIM = new RegExp(`^${URL_SPACE}+|${URL_SPACE}+$`, "g");
const URL_DROPPED = /[\t\r\n]/g; // as browsers do, anywhere in the address
const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/;
const PORT = /^[0-9]{1,5}$/;
// Query parameters that say where a visitor came from, not what the page is. (Without the u flag,
// /i folds ASCII letters only, as Python's re.ASCII does.)
const TRACKING = /^(?:utm_[a-z]+|fbclid|gclid|ref_src)$/i;
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** `host[:port]` of an authority in canonical form, or null when it is not one. */
function canonicalHost(authority, scheme) {
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  const colon = hostPort.indexOf(":");
  const host = colon < 0 ? hostPort : hostPort.slice(0, colon);
  const port = colon < 0 ? "" : hostPort.slice(colon + 1);
  if (!host || /[[\]]/.test(authority) || (port && !PORT.test(port)) || Number(port) > 65535) return null;
  const lower = host.replace(/[A-Z]+/g, (c) => c.toLowerCase());
  const number = String(Number(port || 0));
  return number === "0" || number === DEFAULT_PORTS[scheme] ? lower : `${lower}:${number}`;
}

/** A run of ASCII with %XX escapes, as the UTF-8 text its bytes spell (bad bytes: U+FFFD). */
function decodeAscii(run) {
  const bytes = [];
  for (let i = 0; i < run.length; i++) {
    const hex = run[i] === "%" ? run.slice(i + 1, i + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(run.charCodeAt(i));
  }
  return UTF8.decode(new Uint8Array(bytes));
}

/** Python's urllib.parse.unquote: %XX escapes as UTF-8 bytes, text that is not ASCII kept. */
export function unquote(text) {
  return text.includes("%") ? text.replace(/[^\u0080-\uffff]+/g, decodeAscii) : text;
}

/** A form's field name or value as text (Python's unquote_plus): `+` is a space, then unquote. */
export function unquotePlus(text) {
  return unquote(text.replace(/\+/g, " "));
}

/** Text as a form encodes it (Python's quote_plus): UTF-8, A-Z a-z 0-9 _ . - ~ kept, a space as +. */
function formEncode(text) {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** A query's `name=value` pairs as a form encodes them, in their order, without the empty and the
 * tracking ones. Throws URIError on text that is not Unicode (a lone surrogate). */
function canonicalQuery(query) {
  const pairs = [];
  for (const piece of query.split("&")) {
    if (!piece) continue;
    const eq = piece.indexOf("=");
    const name = unquotePlus(eq < 0 ? piece : piece.slice(0, eq));
    const value = unquotePlus(eq < 0 ? "" : piece.slice(eq + 1));
    if (!TRACKING.test(name)) pairs.push(`${formEncode(name)}=${formEncode(value)}`);
  }
  return pairs.join("&");
}

/**
 * An http(s) (or ftp) URL in canonical form, or null when it is none: surrounding spaces and
 * controls trimmed, tabs and line breaks dropped; scheme and host in lower case (ASCII letters
 * only), without user info, port 0 or the scheme's default port; the path as written (`/` when
 * empty); no fragment; the query's parameters in their order, without the empty and the tracking
 * ones (`utm_*`, `fbclid`, `gclid`, `ref_src`), encoded again as a form encodes them. Hosts in
 * brackets and ports that are not a number up to 65535 are refused. This is the key the server
 * files a paper's URL under: `https://Example.org/p?utm_source=x#s` is `https://example.org/p`.
 */
export function normalizeUrl(input) {
  const text = (typeof input === "string" ? input : "").replace(URL_TRIM, "").replace(URL_DROPPED, "");
  const m = URL_PARTS.exec(text);
  const scheme = m && m[1].toLowerCase();
  if (!m || !URL_SCHEMES.has(scheme)) return null;
  const host = canonicalHost(m[2], scheme);
  if (host === null) return null;
  let query;
  try {
    query = canonicalQuery(m[4] || "");
  } catch {
    return null; // a lone surrogate: no URL
  }
  return `${scheme}://${host}${m[3] || "/"}${query ? `?${query}` : ""}`;
}

/** The key a paper is known by on the page, in lookups and in the outbox: its normalized arXiv
 * id, else its normalized URL; null when it has neither. */
export function paperKey(paper) {
  if (!paper) return null;
  return normalizeArxivId(paper.arxiv_id || "") || normalizeUrl(paper.url) || null;
}
