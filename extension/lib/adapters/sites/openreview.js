/**
 * OpenReview forum pages (`/forum?id=…`): a Next.js page whose note is in `__NEXT_DATA__`
 * (props.pageProps.forumNote: content.title, authors, abstract, venue, pdf, each a value or
 * `{value}` in API v2), besides the `citation_*` tags it also writes.
 */

import { bareHost } from "../common.js";
import { cleanAuthors, cleanDate, squash } from "../meta/clean.js";
import { embeddedEntry } from "../embedded.js";

const value = (v) => (v && typeof v === "object" && !Array.isArray(v) && "value" in v ? v.value : v);

function forumNote(doc) {
  const s = doc.querySelector("script#__NEXT_DATA__");
  if (!s) return null;
  let data;
  try {
    data = JSON.parse(s.textContent);
  } catch {
    return null;
  }
  const props = (data && data.props && data.props.pageProps) || {};
  return props.forumNote || props.note || null;
}

export function completeFromNote(doc) {
  const note = forumNote(doc);
  if (!note || !note.content) return null;
  const c = note.content;
  const venue = squash(value(c.venue) || "");
  const pdf = value(c.pdf);
  const when = note.pdate || note.cdate || note.tcdate;
  return {
    title: squash(value(c.title) || "") || null,
    authors: cleanAuthors([].concat(value(c.authors) || [])),
    abstract: squash(value(c.abstract) || ""),
    booktitle: venue && !/submitted|withdrawn|rejected/i.test(venue) ? venue : null,
    published: typeof when === "number" ? cleanDate(new Date(when).toISOString()) : null,
    pdf_url: typeof pdf === "string" && pdf ? pdf : note.id ? `/pdf?id=${note.id}` : null,
    keywords: [].concat(value(c.keywords) || []).map(squash).filter(Boolean),
    entry_type: "inproceedings",
  };
}

export const openreview = {
  name: "openreview",
  hosts: ["openreview.net"],
  match: (loc) => bareHost(loc.hostname) === "openreview.net" && loc.pathname === "/forum",
  find(doc) {
    const e = embeddedEntry(doc, completeFromNote);
    return e ? [e] : [];
  },
};
