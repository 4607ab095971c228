/**
 * JSON-LD (schema.org) in `<script type="application/ld+json">`: a `ScholarlyArticle`, `Report`,
 * `Thesis` (and their kin), or an `Article` that names a DOI (a news page's Article is no paper),
 * at the top, in an array or in an `@graph`. Authors as Person objects, strings or lists; the
 * venue from `isPartOf` (a Periodical, a PublicationVolume or PublicationIssue inside one).
 */

import { cleanAuthors, cleanDate, doiOf, pageRange, squash, cleanAbstract } from "./clean.js";

const SCHOLARLY = /^(?:schema:)?(?:ScholarlyArticle|MedicalScholarlyArticle|Report|Thesis|Dissertation|Chapter)$/;
const ARTICLE = /^(?:schema:)?(?:Article|TechArticle)$/;

function typesOf(item) {
  return [].concat(item && item["@type"] || []).map(String);
}

function text(value) {
  if (value == null) return "";
  if (typeof value === "string" || typeof value === "number") return squash(value);
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "object") return text(value["@value"] || value.name || value.value || "");
  return "";
}

function personName(p) {
  if (typeof p === "string") return p;
  if (!p || typeof p !== "object") return "";
  if (p.name) return text(p.name);
  return squash(`${text(p.givenName)} ${text(p.familyName)}`);
}

function itemsOf(data, out = []) {
  if (Array.isArray(data)) data.forEach((d) => itemsOf(d, out));
  else if (data && typeof data === "object") {
    if (data["@graph"]) itemsOf(data["@graph"], out);
    if (data["@type"]) out.push(data);
  }
  return out;
}

function doiOfItem(item) {
  for (const v of [].concat(item.doi || [], item.identifier || [], item.sameAs || [], item["@id"] || [], item.url || [])) {
    const t = typeof v === "object" && v ? (v.value || v["@id"] || v.url || "") : v;
    const propertyID = typeof v === "object" && v ? String(v.propertyID || "").toLowerCase() : "";
    const doi = doiOf(String(t || ""));
    if (doi && (propertyID === "" || propertyID === "doi" || /doi/i.test(String(t)))) return doi;
  }
  return null;
}

/** The scholarly item of the page's JSON-LD, or null. */
export function scholarlyItem(doc) {
  let article = null;
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    let data;
    try {
      data = JSON.parse(s.textContent);
    } catch {
      continue;
    }
    for (const item of itemsOf(data)) {
      const types = typesOf(item);
      if (types.some((t) => SCHOLARLY.test(t))) return item;
      if (!article && types.some((t) => ARTICLE.test(t)) && doiOfItem(item)) article = item;
    }
  }
  return article;
}

function venueOf(item) {
  const out = { journal: null, volume: null, number: null };
  let part = item.isPartOf;
  for (let depth = 0; part && depth < 4; depth++) {
    part = Array.isArray(part) ? part[0] : part;
    if (!part || typeof part !== "object") break;
    const types = typesOf(part);
    if (types.some((t) => /PublicationIssue/.test(t))) out.number = out.number || text(part.issueNumber) || null;
    else if (types.some((t) => /PublicationVolume/.test(t))) out.volume = out.volume || text(part.volumeNumber) || null;
    else if (part.name) out.journal = out.journal || text(part.name) || null;
    part = part.isPartOf;
  }
  return out;
}

export function readJsonLd(doc) {
  const item = scholarlyItem(doc);
  if (!item) return null;
  const title = text(item.headline || item.name);
  if (!title) return null;
  const authors = [].concat(item.author || item.creator || []).flatMap((a) => (a && a["@list"] ? a["@list"] : [a])).map(personName);
  const types = typesOf(item);
  const venue = venueOf(item);
  const encoding = [].concat(item.encoding || [], item.associatedMedia || []).find((e) => e && /pdf/i.test(String(e.encodingFormat || e.fileFormat || "")));
  const publisher = [].concat(item.publisher || [])[0];
  return {
    title,
    authors: cleanAuthors(authors),
    published: cleanDate(text(item.datePublished || item.dateCreated)),
    abstract: cleanAbstract(text(item.abstract || item.description)),
    doi: doiOfItem(item),
    journal: venue.journal,
    volume: venue.volume,
    number: venue.number,
    pages: text(item.pagination) ? pageRange(text(item.pagination)) : pageRange(text(item.pageStart), text(item.pageEnd)),
    publisher: publisher ? text(typeof publisher === "string" ? publisher : publisher.name) || null : null,
    pdf_url: encoding ? text(encoding.contentUrl || encoding.url) || null : null,
    entry_type: types.some((t) => /Thesis|Dissertation/.test(t)) ? "phdthesis" : types.some((t) => /Report/.test(t)) ? "techreport"
      : types.some((t) => /Chapter/.test(t)) ? "incollection" : venue.journal ? "article" : null,
    keywords: (typeof item.keywords === "string" ? item.keywords.split(/\s*,\s*/) : [].concat(item.keywords || [])).map(text).filter(Boolean),
  };
}
