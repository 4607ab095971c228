// The content script of every http(s) page. Content scripts cannot be ES modules in a manifest,
// and this one runs on every page a person opens: it only asks whether the page may describe a
// paper (a few selector queries on the head, no DOM change, no message), and only then loads the
// page side (content/main.js, with a dynamic import as loader.js does). What counts:
// Highwire citation_* tags, Dublin Core or PRISM tags, a `doi` meta tag (by name, or by id as
// D-Lib writes it), COinS, JSON-LD that names a scholarly
// type, og: tags with a DOI in the page's own address or tags, and the sites whose papers are
// in their own scripts (IEEE Xplore, ScienceDirect, OpenReview) or only in their text (the ACM
// DL's pages of 2020, with no metadata tags). bench/page.py times
// papershelfMayDescribePaper on a big page without a paper.

function papershelfMayDescribePaper(doc, href) {
  // The tags are in the head: a query there costs microseconds, where one over a 1 MB body
  // would cost a millisecond. A page whose head has no named meta tag at all may have written
  // them in its body (PMLR's 2017 pages open a second <head> inside the body, which a browser
  // drops, leaving its tags there): only then is the whole document looked in.
  const head = doc.head && doc.head.querySelector("meta[name], meta[property]") ? doc.head : doc.documentElement;
  if (head.querySelector('meta[name="citation_title"], meta[name="dc.title" i], meta[name="dcterms.title" i], meta[name^="prism." i], ' +
      'meta[name="doi" i][content*="10."], meta[id="doi" i][content*="10."]')) {
    return true;
  }
  if (/(?:^|\.)(?:ieeexplore\.ieee\.org|sciencedirect\.com|openreview\.net|dl\.acm\.org)$/.test(new URL(href).hostname)) return true;
  const scripts = doc.scripts; // the document's own list, kept by the browser: no query
  for (let i = 0; i < scripts.length; i++) {
    if (scripts[i].type !== "application/ld+json") continue;
    const t = scripts[i].textContent;
    if (/"(?:ScholarlyArticle|MedicalScholarlyArticle|Report|Thesis|Chapter)"/.test(t)) return true;
    if (/"Article"/.test(t) && /10\.\d{4,9}\//.test(t)) return true;
  }
  if (head.querySelector('meta[property="og:title"]') &&
      (head.querySelector('meta[name="doi" i], meta[property="og:url"][content*="10."], link[rel="canonical"][href*="10."]') ||
       /(?:^|\/|doi[:/])10\.\d{4,9}\//i.test(href))) {
    return true;
  }
  return doc.getElementsByClassName("Z3988").length > 0; // COinS, in the body
}

(async () => {
  if (!papershelfMayDescribePaper(document, location.href)) return;
  try {
    const { start } = await import(chrome.runtime.getURL("content/main.js"));
    start();
  } catch (err) {
    console.warn("papershelf: could not start", err);
  }
})();
