/**
 * PRISM meta tags (`prism.doi`, `prism.publicationName`, `prism.volume`, `prism.number`,
 * `prism.startingPage`): Nature, Springer, Elsevier's journals. The venue and its numbers, rarely
 * a title.
 */

import { cleanDate, doiOf, pageRange, squash } from "./clean.js";

const first = (metas, name) => (metas.get(name) || [])[0] || "";

export function readPrism(doc, metas) {
  const journal = squash(first(metas, "prism.publicationname"));
  const doi = doiOf(first(metas, "prism.doi"));
  if (!journal && !doi) return null;
  return {
    title: squash(first(metas, "prism.title")) || null,
    doi,
    journal: journal || null,
    volume: squash(first(metas, "prism.volume")) || null,
    number: squash(first(metas, "prism.number") || first(metas, "prism.issueidentifier")) || null,
    pages: pageRange(first(metas, "prism.startingpage"), first(metas, "prism.endingpage")),
    published: cleanDate(first(metas, "prism.publicationdate") || first(metas, "prism.coverdate")),
    entry_type: journal ? "article" : null,
  };
}
