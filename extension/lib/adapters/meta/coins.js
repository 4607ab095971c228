/**
 * COinS (ContextObjects in Spans): an OpenURL in the title of a `span.Z3988`. A page that
 * describes one paper has one; a page with many (a reference list, a listing) describes none
 * of them in particular, so it is read only when all its spans describe the same item.
 */

import { cleanAuthors, cleanDate, doiOf, pageRange, squash } from "./clean.js";

function parse(title) {
  const fields = new Map();
  for (const pair of String(title || "").split("&")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    let key;
    let value;
    try {
      key = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, " ")).trim();
      value = decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, " "));
    } catch {
      continue;
    }
    if (!fields.has(key)) fields.set(key, []);
    fields.get(key).push(value);
  }
  return fields;
}

export function readCoins(doc) {
  const spans = doc.querySelectorAll("span.Z3988[title]");
  if (!spans.length) return null;
  const titles = new Set(Array.from(spans, (s) => s.getAttribute("title")));
  if (titles.size !== 1) return null;
  const f = parse([...titles][0]);
  const one = (k) => squash((f.get(k) || [])[0]);
  const genre = one("rft.genre").toLowerCase();
  const title = one("rft.atitle") || one("rft.title") || one("rft.btitle");
  if (!title) return null;
  let authors = f.get("rft.au") || [];
  if (!authors.length && (one("rft.aulast") || one("rft.aufirst"))) authors = [`${one("rft.aufirst")} ${one("rft.aulast")}`];
  const container = one("rft.jtitle") || (one("rft.atitle") ? one("rft.title") : "");
  const proceedings = /proceeding|conference/.test(genre);
  return {
    title,
    authors: cleanAuthors(authors),
    published: cleanDate(one("rft.date")),
    doi: (f.get("rft_id") || []).map(doiOf).find(Boolean) || null,
    journal: !proceedings && container ? container : null,
    booktitle: proceedings ? container || one("rft.btitle") || null : null,
    volume: one("rft.volume") || null,
    number: one("rft.issue") || null,
    pages: one("rft.pages") ? pageRange(one("rft.pages")) : pageRange(one("rft.spage"), one("rft.epage")),
    publisher: one("rft.pub") || null,
    entry_type: proceedings ? "inproceedings" : genre === "article" || container ? "article" : genre === "book" ? "book" : null,
  };
}
