/**
 * Highwire Press `citation_*` meta tags (Google Scholar's inclusion guidelines): the most
 * trusted convention, written by arXiv, OJS, HighWire, Atypon, most publishers and proceedings.
 * `citation_author` once per author, or one `citation_authors` for all ("A; B"). A
 * `citation_pdf_url` that is a DOI resolver's address (Semantic Scholar writes one when it has no
 * PDF) names the publisher's landing page, not a PDF: it is read as the DOI, and as no PDF.
 */

import { normalizeDoi } from "../../identities.js";
import { bestDate, cleanAbstract, cleanAuthors, doiOf, pageRange, splitAuthorList, squash } from "./clean.js";

const first = (metas, name) => (metas.get(name) || [])[0] || "";

/** The paper the tags describe as a partial record (see meta/index.js), or null. */
export function readHighwire(doc, metas) {
  const title = squash(first(metas, "citation_title"));
  if (!title) return null;
  let authors = metas.get("citation_author") || [];
  if (!authors.length) authors = (metas.get("citation_authors") || []).flatMap(splitAuthorList);
  const journal = squash(first(metas, "citation_journal_title"));
  const booktitle = squash(first(metas, "citation_conference_title") || first(metas, "citation_inbook_title") || first(metas, "citation_book_title"));
  const thesis = first(metas, "citation_dissertation_institution");
  const report = first(metas, "citation_technical_report_institution");
  const pdf = squash(first(metas, "citation_pdf_url"));
  // an address that is a DOI by the one DOI rule is a resolver's (https://doi.org/10.…)
  const pdfDoi = /^https?:\/\//i.test(pdf) ? normalizeDoi(pdf) : null;
  const entryType = thesis ? "phdthesis" : report ? "techreport" : first(metas, "citation_conference_title") ? "inproceedings"
    : booktitle ? "incollection" : journal ? "article" : null;
  return {
    title,
    authors: cleanAuthors(authors),
    published: bestDate(["citation_publication_date", "citation_date", "citation_online_date", "citation_year"].map((n) => first(metas, n))),
    abstract: cleanAbstract(first(metas, "citation_abstract")),
    doi: doiOf(first(metas, "citation_doi")) || pdfDoi,
    arxiv_id: squash(first(metas, "citation_arxiv_id")) || null,
    journal: journal || null,
    booktitle: booktitle || null,
    volume: squash(first(metas, "citation_volume")) || null,
    number: squash(first(metas, "citation_issue")) || null,
    pages: pageRange(first(metas, "citation_firstpage"), first(metas, "citation_lastpage")),
    publisher: squash(first(metas, "citation_publisher") || thesis || report) || null,
    pdf_url: pdf && !pdfDoi ? pdf : null,
    entry_type: entryType,
    affiliations: [...new Set((metas.get("citation_author_institution") || []).map(squash).filter(Boolean))],
    keywords: (metas.get("citation_keywords") || []).flatMap((k) => k.split(/\s*[;,]\s*/)).map(squash).filter(Boolean),
  };
}

/**
 * The paper a page's Highwire `citation_*` meta tags describe, in the shape arXiv's abstract
 * pages are read in, or null when there is no citation_title: {title, authors, abstract,
 * published, doi, arxiv_id, url, affiliations}, values trimmed, authors "First Last".
 *
 * The date is the first version's: citation_publication_date, then citation_date, then
 * citation_online_date (on arXiv citation_date is v1's date and citation_online_date the latest
 * version's). Highwire dates are YYYY/MM[/DD]; a bare year is no date.
 */
export function readCitationMeta(doc = document) {
  const values = (name) =>
    Array.from(doc.querySelectorAll(`meta[name="${name}"]`))
      .map((m) => (m.getAttribute("content") || "").trim())
      .filter(Boolean);
  const title = values("citation_title")[0];
  if (!title) return null;
  const date = values("citation_publication_date")[0] || values("citation_date")[0] || values("citation_online_date")[0] || "";
  const ymd = /^(\d{4})[-/](\d{1,2})(?:[-/](\d{1,2}))?/.exec(date);
  const canonical = doc.querySelector('link[rel="canonical"][href]');
  return {
    title,
    authors: values("citation_author").map((a) => {
      const [last, firstName] = a.split(/\s*,\s*/);
      return firstName ? `${firstName} ${last}` : last;
    }),
    abstract: values("citation_abstract")[0] || values("description")[0] || "",
    published: ymd ? `${ymd[1]}-${ymd[2].padStart(2, "0")}-${(ymd[3] || "1").padStart(2, "0")}` : null,
    doi: (values("citation_doi")[0] || "").toLowerCase() || null,
    arxiv_id: values("citation_arxiv_id")[0] || null,
    url: (canonical && canonical.href) || doc.location.href,
    affiliations: [...new Set(values("citation_author_institution"))],
  };
}
