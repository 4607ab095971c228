/**
 * IEEE Xplore document pages (`/document/<arnumber>`): an Angular shell whose paper is the
 * `xplGlobal.document.metadata={…};` assignment in an inline script (title, authors with their
 * affiliations, abstract, DOI, the venue and its numbers, the PDF's stamp page); pages of 2020
 * name the same object `global.document.metadata`.
 */

import { bareHost, jsonAfter, scriptWith } from "../common.js";
import { cleanAuthors, cleanDate, doiOf, pageRange, squash } from "../meta/clean.js";
import { embeddedEntry } from "../embedded.js";

const MARKERS = ["xplGlobal.document.metadata", "global.document.metadata"];

function metadataOf(doc) {
  for (const marker of MARKERS) {
    const text = scriptWith(doc, marker);
    if (text) return jsonAfter(text, marker);
  }
  return null;
}

/** The paper of the page's metadata blob, as a partial record. */
export function completeFromXplore(doc) {
  const m = metadataOf(doc);
  if (!m || typeof m !== "object") return null;
  const conference = m.isConference === true || /conference/i.test(String(m.contentType || ""));
  const venue = squash(m.publicationTitle || m.displayPublicationTitle || "") || null;
  const authors = [].concat(m.authors || []).map((a) => (typeof a === "string" ? a : a.name || `${a.firstName || ""} ${a.lastName || ""}`));
  return {
    title: squash(m.formulaStrippedArticleTitle || m.title || "") || null,
    authors: cleanAuthors(authors),
    abstract: squash(m.abstract || ""),
    doi: doiOf(String(m.doi || "")),
    journal: conference ? null : venue,
    booktitle: conference ? venue : null,
    volume: squash(m.volume || "") || null,
    number: squash(m.issue || "") || null,
    pages: pageRange(m.startPage, m.endPage),
    publisher: squash(m.publisher || "") || null,
    published: cleanDate(m.publicationDate || m.onlineDate || ""),
    pdf_url: m.pdfUrl || (m.articleNumber ? `/stamp/stamp.jsp?tp=&arnumber=${m.articleNumber}` : null),
    entry_type: conference ? "inproceedings" : venue ? "article" : null,
    affiliations: [...new Set([].concat(m.authors || []).flatMap((a) => [].concat((a && a.affiliation) || [])).map(squash).filter(Boolean))],
  };
}

export const ieee = {
  name: "ieee",
  hosts: ["ieeexplore.ieee.org"],
  match: (loc) => bareHost(loc.hostname) === "ieeexplore.ieee.org" && /^\/(?:abstract\/)?document\/\d+/.test(loc.pathname),
  find(doc) {
    const e = embeddedEntry(doc, completeFromXplore);
    return e ? [e] : [];
  },
};
