/**
 * What real pages write, made into what a paper has: author names without footnote marks,
 * affiliations or e-mail addresses, each person once; dates as the server takes them; a DOI
 * found in an identifier, a resolver address or a `doi:` string; page ranges. The metadata
 * readers (meta/*.js) all go through these, so that every convention is cleaned alike.
 * Pure: no DOM.
 */

const SPACES = /[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g;
// Marks a page puts after (or before) a name: *, †, ‡, §, ¶, ‖, #, digits, superscripts, and
// the letters of affiliation marks when written as superscript characters.
const MARKS = "*†‡§¶‖#⁎∗✉⸸\\d\u00b9\u00b2\u00b3\u2070-\u209f\u1d2c-\u1d6a";
const TRAILING_MARKS = new RegExp(`(?:[\\s,]*[${MARKS}]+)+$`, "u");
const LEADING_MARKS = new RegExp(`^[${MARKS}\\s]+`, "u");
const EMAIL = /\S+@\S+\.\S+/;
const AFFILIATION = /\b(?:Universit|Institut|Department|Dept\.?|Faculty|School|College|Laborator|Lab\b|Labs\b|Center|Centre|Hospital|Inc\.?|Ltd|GmbH|Corporation|Academy|Research|Foundation)/i;
const ACRONYM = /^[A-Z]{2,}$/;
const SUFFIX = /^(?:Jr|Sr|II|III|IV)\.?$/;
const PARTICLE = /^(?:van|von|der|den|de|del|della|di|da|du|la|le|ten|ter|bin|al|el|y)$/i;
const NOT_A_NAME = /^(?:and|et al\.?|others|editor|authors?)$/i;

/** Whitespace runs (non-breaking, zero-width) → one space, trimmed. */
export function squash(text) {
  return String(text ?? "").replace(SPACES, " ").trim();
}

/** One author as a page writes it → "First Last", or "" when nothing of a name is left.
 * "Smith, John" → "John Smith"; "John Smith1,2*" → "John Smith"; "Jane Roe, MIT, jane@mit.edu"
 * → "Jane Roe"; an organisation ("ATLAS Collaboration") stays as it is. */
export function cleanAuthor(raw) {
  let text = squash(raw).replace(/<[^>]*>/g, "").replace(/\s*\((?:[^()]*@[^()]*)\)/g, "");
  text = text.replace(TRAILING_MARKS, "").replace(LEADING_MARKS, "").trim();
  if (!text) return "";
  let parts = text.split(/\s*[,;]\s*/).filter(Boolean);
  if (parts.length > 1) {
    const kept = parts.filter((p) => !EMAIL.test(p) && !AFFILIATION.test(p) && !ACRONYM.test(p));
    if (kept.length) parts = kept;
  }
  parts = parts.map((p) => p.replace(TRAILING_MARKS, "").trim()).filter((p) => p && !EMAIL.test(p));
  if (!parts.length) return "";
  let name = parts[0];
  if (parts.length === 2 && SUFFIX.test(parts[1])) name = `${parts[0]}, ${parts[1]}`;
  else if (parts.length === 2 && looksLikeSurname(parts[0]) && parts[1].split(" ").length <= 3) {
    name = `${parts[1]} ${parts[0]}`; // "Last, First" (Highwire, Dublin Core)
  }
  name = squash(name);
  return NOT_A_NAME.test(name) ? "" : name;
}

/** "Smith", "van der Berg": one word, or words before it that are name particles. */
function looksLikeSurname(text) {
  const words = text.split(" ");
  return words.slice(0, -1).every((w) => PARTICLE.test(w));
}

/** Authors as a list: each cleaned, each person once (the first time they appear). */
export function cleanAuthors(list) {
  const seen = new Set();
  const out = [];
  for (const raw of list) {
    const name = cleanAuthor(raw);
    const key = name.toLowerCase().replace(/[.\s]+/g, " ").trim();
    if (!name || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

/** One string naming every author ("A; B; C", "A, B and C") → each. A single name written
 * "Last, First" stays one. */
export function splitAuthorList(text) {
  const t = squash(text);
  if (!t) return [];
  if (t.includes(";")) return t.split(/\s*;\s*/).filter(Boolean);
  const pieces = t.split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*/).filter(Boolean);
  if (pieces.length > 1 && pieces.every((p) => p.includes(" "))) return pieces;
  return [t];
}

/** An abstract as a tag gives it: markup removed ("<h3>ABSTRACT</h3><p>…"), the heading word
 * dropped, whitespace folded. */
export function cleanAbstract(text) {
  const t = squash(String(text ?? "").replace(/<[^>]*>/g, " "));
  return t.replace(/^abstract\s*[:.\u2014-]?\s+/i, "");
}

/** Is `text` a reference line for `paper` rather than its abstract: short, and naming the
 * paper's first author and its venue (journal or proceedings) as a citation does? */
export function isReferenceLine(text, paper) {
  const venue = squash(paper.booktitle || paper.journal).toLowerCase();
  const surname = squash((paper.authors || [])[0]).split(" ").pop().toLowerCase();
  const t = squash(text).toLowerCase();
  return Boolean(venue && surname && t.includes(venue) && t.includes(surname) && t.length < venue.length + 300);
}

/** Does `full` complete `cut`, an abstract cut short with an ellipsis (og:description's
 * "… equivalent t…")? */
export function completesAbstract(cut, full) {
  const m = /^(.*?)\s*(?:…|\.\.\.)$/s.exec(squash(cut));
  const text = squash(full);
  return Boolean(m && m[1] && text.length > m[1].length && text.startsWith(m[1]));
}

/** The first of `dates` (cleaned), unless it is a placeholder January 1st: then another date
 * of the same year that is more precise (bioRxiv writes citation_publication_date 2020/01/01),
 * or, when the page's other dates are of other years, the year alone (Wiley writes a 1926 paper
 * as 1926/01/01, put online 2006/03/16). */
export function bestDate(dates) {
  const clean = dates.map(cleanDate).filter(Boolean);
  if (!clean.length) return null;
  const [first] = clean;
  if (/-01-01$/.test(first)) {
    const year = first.slice(0, 4);
    const better = clean.find((d) => d.startsWith(year) && d.length > 4 && !/-01-01$/.test(d));
    if (better) return better;
    if (clean.some((d) => !d.startsWith(year))) return year;
  }
  return first;
}

const DOI_IN_TEXT = /\b(10\.\d{4,9}\/[^\s"'<>]+)/i;

/** The DOI a string holds ("doi:10.1/x", "https://doi.org/10.1/X", "info:doi/10.1%2Fx",
 * "10.1/x"), lowercased, without trailing punctuation; null when it holds none. */
export function doiOf(text) {
  if (typeof text !== "string" || !text) return null;
  let t = text.trim();
  if (/%2f/i.test(t)) {
    try {
      t = decodeURIComponent(t);
    } catch {
      // a stray % is not an encoding
    }
  }
  const m = DOI_IN_TEXT.exec(t);
  if (!m) return null;
  return m[1].replace(/[.,;:)\]}]+$/, "").toLowerCase();
}

const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A date as pages write it ("2019/03/14", "2019-03", "2019", "14 March 2019", "March 2019",
 * an ISO timestamp) → "YYYY-MM-DD", "YYYY-MM" or "YYYY" (as precise as the page); else null. */
export function cleanDate(text) {
  const t = squash(text);
  if (!t) return null;
  let m = /^(\d{4})\s+([A-Za-z]{3,})\.?(?:\s+(\d{1,2}))?$/.exec(t); // PubMed's "2012 Nov 26"
  if (m) {
    const month = MONTH_NAMES.indexOf(m[2].slice(0, 3).toLowerCase()) + 1;
    if (!month) return m[1];
    const mm = String(month).padStart(2, "0");
    return m[3] ? `${m[1]}-${mm}-${m[3].padStart(2, "0")}` : `${m[1]}-${mm}`;
  }
  m = /^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T\s]|$)/.exec(t);
  if (m) {
    const [, y, mo, d] = m;
    if (!mo) return y;
    const month = mo.padStart(2, "0");
    if (Number(month) < 1 || Number(month) > 12) return y;
    return d ? `${y}-${month}-${d.padStart(2, "0")}` : `${y}-${month}`;
  }
  m = /^(?:(\d{1,2})\s+)?([A-Za-z]{3,})\.?,?\s+(?:(\d{1,2}),?\s+)?(\d{4})$/.exec(t);
  if (m) {
    const month = MONTH_NAMES.indexOf(m[2].slice(0, 3).toLowerCase()) + 1;
    if (!month) return null;
    const day = m[1] || m[3];
    const mm = String(month).padStart(2, "0");
    return day ? `${m[4]}-${mm}-${day.padStart(2, "0")}` : `${m[4]}-${mm}`;
  }
  return null;
}

/** First and last page → "12--34" (BibTeX's range); one page alone; a range as written. */
export function pageRange(first, last) {
  const f = squash(first);
  const l = squash(last);
  if (f && /[-–—]/.test(f) && !l) return f.replace(/\s*[-–—]+\s*/, "--");
  if (f && l && l !== f) return `${f}--${l}`;
  return f || null;
}
