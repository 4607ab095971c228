/**
 * ACM Digital Library article pages (`dl.acm.org/doi/…`). Pages of 2020 carry almost no metadata
 * tags (`og:url` and three `dc.` tags of format, language and coverage): the paper is in the page
 * itself. What is read there, where the tags say nothing:
 * - the DOI from the `pbContext` tag (`article:article:doi\:10.1145/…`), else from the address;
 * - the title from the page's `h1`; the authors from their links' `title` (each author is listed
 *   twice: the list and its pop-ups);
 * - the venue from the link to its proceedings (`/doi/proceedings/…`, a booktitle) or its issue
 *   (`/toc/…`, a journal), whose `title` is the venue's name; the date, pages and DOI from the
 *   same line ("February 2020", "Pages 117–123");
 * - the abstract from the abstract section, the publisher from the publisher section, the PDF
 *   from the `/doi/pdf/…` link.
 * Newer pages with `dc.`/`citation_` tags are read from those first; this only fills the gaps.
 */

import { bareHost, locationOf } from "../common.js";
import { cleanAuthors, cleanDate, doiOf, pageRange, squash } from "../meta/clean.js";
import { embeddedEntry } from "../embedded.js";

const text = (el) => (el ? squash(el.textContent) : "");

/** An article's address, `/doi/[view/]10.xxxx/…`: [, the view (or undefined), the DOI as written]. */
const DOI_PATH = /^\/doi\/(?:(abs|full|fullHtml|epdf|pdf)\/)?(10\.\d{4,9}\/.+)$/;
/** The views that are pages to read (a PDF is not). */
const PAGE_VIEWS = new Set([undefined, "abs", "full", "fullHtml"]);

function doiOfPage(doc) {
  const context = doc.querySelector('meta[name="pbContext"]');
  const m = context && /article:article:doi\\?:(10\.[^;]+)/.exec(context.getAttribute("content") || "");
  if (m) return doiOf(m[1]);
  const path = DOI_PATH.exec(locationOf(doc).pathname || "");
  return path ? doiOf(decodeURIComponent(path[2])) : null;
}

/** The paper as the page's body shows it, as a partial record. */
export function completeFromPage(doc) {
  const doi = doiOfPage(doc);
  const title = text(doc.querySelector("h1"));
  if (!doi || !title) return null;
  const authors = cleanAuthors([...new Set([...doc.querySelectorAll("a.author-name[title]")].map((a) => a.getAttribute("title")))]);
  // The venue's link (its proceedings or its issue); its line holds the date and pages.
  const link = doc.querySelector('a[href^="/doi/proceedings/"][title], a[href^="/toc/"][title]');
  const venue = link ? squash(link.getAttribute("title")) || null : null;
  const proceedings = !!link && link.getAttribute("href").startsWith("/doi/proceedings/");
  const lineText = text(link && link.parentElement);
  const month = /\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}\b/.exec(lineText.replace(venue || "", ""));
  const date = month ? cleanDate(month[0]) : null;
  const pages = /Pages?\s+([A-Za-z]?\d+)\s*[–-]\s*([A-Za-z]?\d+)/.exec(lineText);
  const abstract = text(doc.querySelector(".abstractSection"));
  const publisher = text(doc.querySelector(".publisher__name")) || null;
  const pdf = doc.querySelector('a[href^="/doi/pdf/"]'); // made absolute by embeddedPaper
  return {
    title,
    authors,
    abstract,
    doi,
    journal: venue && !proceedings ? venue : null,
    booktitle: venue && proceedings ? venue : null,
    pages: pages ? pageRange(pages[1], pages[2]) : null,
    publisher,
    published: date,
    pdf_url: pdf ? pdf.getAttribute("href") : null,
  };
}

export const acm = {
  name: "acm",
  hosts: ["dl.acm.org"],
  match(loc) {
    const path = bareHost(loc.hostname) === "dl.acm.org" && DOI_PATH.exec(loc.pathname);
    return Boolean(path) && PAGE_VIEWS.has(path[1]);
  },
  find(doc) {
    const e = embeddedEntry(doc, completeFromPage);
    return e ? [e] : [];
  },
};
