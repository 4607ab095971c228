/**
 * Dublin Core meta tags (`DC.title`, `dc.creator`, `DCTERMS.issued`, …; any case): OJS, eLife,
 * Nature, repositories. The DOI is the first `dc.identifier` that holds one (the first is often
 * a URL, an ISSN or a PII), or `DC.Identifier.DOI`.
 */

import { cleanAuthors, cleanDate, doiOf, squash, cleanAbstract } from "./clean.js";

function all(metas, ...names) {
  return names.flatMap((n) => metas.get(n) || []);
}

export function readDublinCore(doc, metas) {
  const title = squash(all(metas, "dc.title", "dcterms.title")[0]);
  if (!title) return null;
  let people = all(metas, "dc.creator", "dc.creator.personalname", "dcterms.creator");
  if (!people.length) people = all(metas, "dc.contributor", "dc.contributor.author", "dcterms.contributor");
  const identifiers = all(metas, "dc.identifier.doi", "dc.identifier", "dcterms.identifier");
  const doi = identifiers.map(doiOf).find(Boolean) || null;
  const type = squash(all(metas, "dc.type")[0]).toLowerCase();
  return {
    title,
    authors: cleanAuthors(people),
    published: cleanDate(all(metas, "dc.date.issued", "dcterms.issued", "dc.date", "dcterms.date", "dc.date.created")[0]),
    abstract: cleanAbstract(all(metas, "dcterms.abstract", "dc.description", "dcterms.description")[0]),
    doi,
    publisher: squash(all(metas, "dc.publisher", "dcterms.publisher")[0]) || null,
    entry_type: /thesis|dissertation/.test(type) ? "phdthesis" : /conference|proceeding/.test(type) ? "inproceedings" : null,
    keywords: all(metas, "dc.subject").map(squash).filter(Boolean),
  };
}
