/**
 * The adapters on pages saved from the real sites (tests/fixtures/pages/<site>/, origins in
 * tests/fixtures/pages/MANIFEST.md), each checked field by field against what the page's own
 * tags and text say; the pages that are no paper (old layouts without metadata, a bot wall,
 * an empty app shell, news and encyclopedia pages); and the ways real pages lie.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { PAGES, htmlDocument } from "./helpers.js";
import { findPaperElements, findPapersOnPage, marksInPage, pageSavePayload, readEmbeddedMetadata, toSavePayload } from "../../extension/lib/adapters/index.js";
import { barIsOffOn, normalizeHost } from "../../extension/lib/sites.js";
import { identitiesOfUrl } from "../../extension/lib/identities.js";

export const SITE_PAGES = JSON.parse(fs.readFileSync(path.join(PAGES, "sites.json"), "utf8"));

function load(name, url) {
  return htmlDocument(fs.readFileSync(path.join(PAGES, name), "utf8"), url);
}

const CHECKED = ["title", "published", "doi", "journal", "booktitle", "volume", "number", "pages", "publisher", "pdf_url", "entry_type", "arxiv_id"];

for (const page of SITE_PAGES) {
  test(`${page.site}: ${page.file} — ${page.paper ? "every field as the page says" : "no paper"}`, () => {
    const doc = load(page.file, page.url);
    const papers = findPapersOnPage(doc);
    if (!page.paper) {
      assert.equal(papers.length, 0, "nothing to mark");
      return;
    }
    assert.equal(papers.length, 1, "one paper");
    const [p] = papers;
    const want = page.paper;
    const unread = new Set(page.unread || []);
    for (const field of CHECKED) {
      if (!(field in want)) continue;
      // What the page says only in free text the readers do not reach: read as nothing, not wrongly.
      if (unread.has(field)) assert.equal(p[field] ?? null, null, `${field} (unread)`);
      else assert.equal(p[field] ?? null, want[field], field);
    }
    if (unread.has("authors")) {
      assert.deepEqual(p.authors, [], "authors (unread)");
    } else {
      assert.equal(p.authors.length, want.authors_count, "every author, each once");
      assert.deepEqual(p.authors.slice(0, want.authors_first.length), want.authors_first);
      if (want.authors_last) assert.equal(p.authors.at(-1), want.authors_last);
    }
    assert.ok(p.abstract.startsWith(want.abstract_start), `abstract starts ${JSON.stringify(p.abstract.slice(0, 60))}`);
    const body = toSavePayload(p, page.url);
    assert.equal(body.title, want.title);
    if (want.doi) assert.equal(body.doi, want.doi);
    assert.ok(body.url, "saved with the page's address");
  });
}

/** The fields of `want` that `p` has as the page says them (the authors one field: count,
 * first and last; the abstract: how it starts). */
function fieldsRight(p, want) {
  const fields = [...CHECKED.filter((f) => f in want), "authors", "abstract"];
  const authorsRight = (q) => q.authors.length === want.authors_count && (!want.authors_last || q.authors.at(-1) === want.authors_last)
    && want.authors_first.every((a, i) => q.authors[i] === a);
  const rightIn = (q, f) => (f === "authors" ? authorsRight(q) : f === "abstract" ? q.abstract.startsWith(want.abstract_start) : (q[f] ?? null) === want[f]);
  const right = fields.filter((f) => p && rightIn(p, f));
  return [right.length, fields.length];
}

test("the figures: pages recognized and fields right, per site", () => {
  const rows = [];
  for (const page of SITE_PAGES) {
    const [p] = findPapersOnPage(load(page.file, page.url));
    const [right, checked] = page.paper ? fieldsRight(p, page.paper) : [0, 0];
    const state = page.paper ? (p ? "recognized" : "MISSED    ") : p ? "FALSE HIT " : "no paper  ";
    rows.push(`${page.site.padEnd(14)} ${state} ${right}/${checked} fields  ${page.file}`);
  }
  console.log(rows.join("\n"));
});

// ---- what is not a paper --------------------------------------------------------------------

test("a Cloudflare bot wall in front of a publisher's page is no paper, even with the page's tags", () => {
  const wall = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
    <meta name="citation_title" content="Kept from a cached head"></head><body><div id="challenge-running">
    <h1>Checking your browser before accessing www.sciencedirect.com</h1></div>
    <script>window._cf_chl_opt={cvId: '2',cType: 'managed'};</script></body></html>`;
  assert.deepEqual(findPaperElements(htmlDocument(wall, "https://www.sciencedirect.com/science/article/pii/S0004370207000471")), []);
  const captcha = `<html><head><title>Are you a robot?</title><meta property="og:title" content="x"></head>
    <body><div class="g-recaptcha" data-sitekey="k"></div></body></html>`;
  assert.deepEqual(findPaperElements(htmlDocument(captcha, "https://dl.acm.org/doi/10.1145/3442188.3445922")), []);
});

test("a cookie wall and an empty app shell (no title, no identity) are no paper", () => {
  const consent = `<html><head><title>Before you continue to Google Scholar</title></head><body><form>Accept all</form></body></html>`;
  assert.deepEqual(findPaperElements(htmlDocument(consent, "https://consent.google.com/ml?continue=x")), []);
  const shell = `<!doctype html><html><head><title>Semantic Scholar</title><meta property="og:title" content="Semantic Scholar">
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"WebSite","name":"Semantic Scholar"}</script>
    </head><body><div id="app"></div><script src="/app.js"></script></body></html>`;
  assert.deepEqual(findPaperElements(htmlDocument(shell, "https://www.semanticscholar.org/paper/abc")), []);
});

test("a news article and an encyclopedia page (real, with og: and JSON-LD) are no paper", () => {
  assert.deepEqual(findPaperElements(load("notpapers/guardian-1.html", "https://www.theguardian.com/environment/2019/jan/03/what-is-the-sea-telling-us-maori-tribes-fearful-over-whale-strandings")), []);
  assert.deepEqual(findPaperElements(load("notpapers/wikipedia-2.html", "https://en.wikipedia.org/wiki/New_Zealand")), []);
});

// ---- how real pages lie ----------------------------------------------------------------------

function page(head, body = "", url = "https://journal.example.org/article/1") {
  return htmlDocument(`<!doctype html><html><head><title>x</title>${head}</head><body>${body}</body></html>`, url);
}

test("authors: footnote marks, runs of spaces, superscripts, an affiliation and an e-mail in a name", () => {
  const doc = page(`<meta name="citation_title" content="A  Paper">
    <meta name="citation_author" content="Ana   Lopez*†"><meta name="citation_author" content="Wei Li¹ ²">
    <meta name="citation_author" content="Smith, John 3">
    <meta name="citation_author" content="Jane Roe, Department of Physics, MIT, jane.roe@mit.edu">
    <meta name="citation_author" content="ATLAS Collaboration">`);
  const m = readEmbeddedMetadata(doc);
  assert.equal(m.title, "A Paper");
  assert.deepEqual(m.authors, ["Ana Lopez", "Wei Li", "John Smith", "Jane Roe", "ATLAS Collaboration"]);
});

test("one citation_authors string for every author", () => {
  const doc = page(`<meta name="citation_title" content="T"><meta name="citation_authors" content="Vaswani, Ashish; Shazeer, Noam; Parmar, Niki">`);
  assert.deepEqual(readEmbeddedMetadata(doc).authors, ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"]);
});

test("500+ authors with duplicates: every one, each once, in order", () => {
  const letters = (i) => String.fromCharCode(65 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26) % 26);
  const names = Array.from({ length: 520 }, (_, i) => `Given${letters(i)} Surname${letters(i * 7)}`);
  const tags = [...names, ...names.slice(0, 40)].map((n) => `<meta name="citation_author" content="${n}">`).join("");
  const m = readEmbeddedMetadata(page(`<meta name="citation_title" content="T">${tags}`));
  assert.equal(m.authors.length, 520);
  assert.deepEqual(m.authors.slice(0, 3), names.slice(0, 3));
  const body = toSavePayload({ ...m, url: "https://journal.example.org/article/1" });
  assert.equal(body.authors.length, 520);
});

test("the DOI is the dc.identifier that holds one, not the first", () => {
  const doc = page(`<meta name="DC.title" content="T"><meta name="DC.identifier" content="https://journal.example.org/article/1">
    <meta name="DC.identifier" content="ISSN 1234-5678"><meta name="DC.identifier" content="doi:10.5555/ABC.123">
    <meta name="DC.creator" content="Roe, Jane">`);
  const m = readEmbeddedMetadata(doc);
  assert.equal(m.doi, "10.5555/abc.123");
  assert.deepEqual(m.authors, ["Jane Roe"]);
  assert.equal(m.sources.doi, "dublincore");
});

test("field by field in the order of trust: Highwire, Dublin Core, PRISM, JSON-LD, COinS, og", () => {
  const doc = page(`<meta name="citation_title" content="Highwire title">
    <meta name="dc.title" content="DC title"><meta name="dc.publisher" content="DC Press">
    <meta name="prism.publicationName" content="Journal of PRISM"><meta name="prism.volume" content="7">
    <meta property="og:title" content="og title"><meta property="og:description" content="og abstract">
    <script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":"ScholarlyArticle","headline":"LD title",
      "author":[{"@type":"Person","givenName":"Ada","familyName":"Lovelace"},"Charles Babbage"],"datePublished":"1843-09",
      "description":"LD abstract","isPartOf":{"@type":"PublicationIssue","issueNumber":"3","isPartOf":{"@type":"Periodical","name":"LD Journal"}}}]}</script>`,
  "", "https://journal.example.org/doi/10.5555/trust");
  const m = readEmbeddedMetadata(doc);
  assert.equal(m.title, "Highwire title");
  assert.equal(m.publisher, "DC Press");
  assert.equal(m.journal, "Journal of PRISM");
  assert.equal(m.volume, "7");
  assert.equal(m.number, "3");
  assert.deepEqual(m.authors, ["Ada Lovelace", "Charles Babbage"]);
  assert.equal(m.published, "1843-09");
  assert.equal(m.abstract, "LD abstract");
  assert.equal(m.doi, "10.5555/trust");
  assert.deepEqual([m.sources.title, m.sources.publisher, m.sources.journal, m.sources.authors, m.sources.doi],
    ["highwire", "dublincore", "prism", "jsonld", "og"]);
  assert.equal(m.entry_type, "article");
});

test("COinS: one item on the page is its paper; a reference list of many is none", () => {
  const span = (t) => `<span class="Z3988" title="${t}"></span>`;
  const one = "ctx_ver=Z39.88-2004&amp;rft_val_fmt=info%3Aofi%2Ffmt%3Akev%3Amtx%3Ajournal&amp;rft.genre=proceeding&amp;rft.atitle=Deep+Residual+Learning&amp;rft.btitle=CVPR&amp;rft.au=He%2C+Kaiming&amp;rft.au=Zhang%2C+Xiangyu&amp;rft.date=2016&amp;rft.spage=770&amp;rft.epage=778&amp;rft_id=info%3Adoi%2F10.1109%2FCVPR.2016.90";
  const m = readEmbeddedMetadata(page("", span(one) + span(one)));
  assert.equal(m.title, "Deep Residual Learning");
  assert.deepEqual(m.authors, ["Kaiming He", "Xiangyu Zhang"]);
  assert.equal(m.booktitle, "CVPR");
  assert.equal(m.pages, "770--778");
  assert.equal(m.doi, "10.1109/cvpr.2016.90");
  assert.equal(m.entry_type, "inproceedings");
  const other = one.replace("Deep+Residual", "Other");
  assert.equal(readEmbeddedMetadata(page("", span(one) + span(other))), null);
});

test("og: tags describe a paper only with the page's own DOI; a DOI among its links is not its", () => {
  const og = `<meta property="og:title" content="A Paper"><meta property="og:description" content="What it finds.">`;
  assert.equal(readEmbeddedMetadata(page(og, '<a href="https://doi.org/10.1000/xyz">cited</a>', "https://blog.example.org/post")), null);
  const m = readEmbeddedMetadata(page(og, "", "https://dl.acm.org/doi/10.1145/3442188.3445922"));
  assert.equal(m.doi, "10.1145/3442188.3445922");
  assert.equal(m.title, "A Paper");
});

test("a JSON-LD Article counts only with a DOI (a news page's Article is no paper)", () => {
  const ld = (x) => `<script type="application/ld+json">${JSON.stringify(x)}</script>`;
  assert.equal(readEmbeddedMetadata(page(ld({ "@type": "Article", headline: "Local news" }))), null);
  const m = readEmbeddedMetadata(page(ld({ "@type": "Article", headline: "A study", identifier: { "@type": "PropertyValue", propertyID: "DOI", value: "10.1234/Study" }, author: "Ann Author" })));
  assert.equal(m.doi, "10.1234/study");
  assert.deepEqual(m.authors, ["Ann Author"]);
  const thesis = readEmbeddedMetadata(page(ld({ "@context": "https://schema.org", "@type": "Thesis", name: "On Things", author: { name: "Tess Student" }, datePublished: "2020-05-01" })));
  assert.equal(thesis.entry_type, "phdthesis");
});

test("an og:description that is a reference line (authors, venue, year) is no abstract: the page's Abstract section is", () => {
  const tags = `<meta name="citation_title" content="A Paper"><meta name="citation_author" content="Ann Author">
    <meta name="citation_conference_title" content="Proceedings of the Example Conference"><meta name="citation_doi" content="10.5555/ref.1">
    <meta property="og:title" content="A Paper"><meta property="og:description" content="Ann Author. Proceedings of the Example Conference. 2021.">`;
  const body = `<h2>A Paper</h2><div><h5>Abstract</h5><span>We  show a thing.</span><p>It holds.</p><p>Keywords: things</p></div>
    <h5>References</h5><p>Not the abstract.</p>`;
  const m = readEmbeddedMetadata(page(tags, body));
  assert.equal(m.abstract, "We show a thing. It holds.");
  assert.equal(m.sources.abstract, "page");
  const withAbstract = readEmbeddedMetadata(page(tags.replace("Ann Author. Proceedings of the Example Conference. 2021.", "We study things."), body));
  assert.equal(withAbstract.abstract, "We study things.", "a real og:description still counts");
  const nature = readEmbeddedMetadata(page(`<meta name="citation_title" content="Reefs"><meta name="citation_author" content="Ann Author">
    <meta name="citation_journal_title" content="Nature"><meta name="citation_doi" content="10.1038/x1">
    <meta property="og:title" content="Reefs"><meta property="og:description" content="Reefs in nature recover within a decade.">`));
  assert.equal(nature.abstract, "Reefs in nature recover within a decade.", "a short abstract that names no author is no reference line");
});

test("an og:description cut short with an ellipsis gives way to the whole abstract it begins", () => {
  const tags = `<meta name="citation_title" content="A Paper"><meta name="citation_doi" content="10.5555/cut.1">
    <meta property="og:title" content="A Paper"><meta property="og:description" content="We measure the thing in a w…">`;
  const m = readEmbeddedMetadata(page(tags, "<h1>A Paper</h1><h2>Abstract</h2><div><p>We measure the thing in a way nobody did.</p></div>"));
  assert.equal(m.abstract, "We measure the thing in a way nobody did.");
  const other = readEmbeddedMetadata(page(tags, "<h1>A Paper</h1><h2>Abstract</h2><p>Another text entirely.</p>"));
  assert.equal(other.abstract, "We measure the thing in a w…", "a page text it does not begin is not its whole");
});

test("a page that declares its own DOI in <meta id=DOI> is the paper its <title> and heading name", () => {
  const head = `<meta id="DOI" content="10.1045/example-1"><meta itemprop="datePublished" content="2017-05-15">`;
  const doc = htmlDocument(`<html><head><title>Crowds and Archives</title>${head}</head><body><h3>Magazine</h3>
    <h3>Crowds and Archives</h3><h3>Abstract</h3><p>What crowds do.</p></body></html>`, "http://mag.example.org/a.html");
  const m = readEmbeddedMetadata(doc);
  assert.deepEqual([m.title, m.doi, m.published, m.abstract], ["Crowds and Archives", "10.1045/example-1", "2017-05-15", "What crowds do."]);
  assert.equal(mayDescribePaper(doc, "http://mag.example.org/a.html"), true);
  // Without the DOI tag, a heading that repeats the <title> is no paper.
  const plain = htmlDocument(`<html><head><title>Crowds and Archives</title></head><body><h3>Crowds and Archives</h3>
    <h3>Abstract</h3><p>What crowds do.</p></body></html>`, "http://mag.example.org/a.html");
  assert.equal(readEmbeddedMetadata(plain), null);
  assert.equal(mayDescribePaper(plain, "http://mag.example.org/a.html"), false);
});

test("a page that is not a named site shows one paper at most, however many it describes", () => {
  const many = Array.from({ length: 1000 }, (_, i) => `<meta name="citation_doi" content="10.9999/fake.${i}">`).join("");
  const entries = findPaperElements(page(`<meta name="citation_title" content="Bait">${many}`, "<h1>Bait</h1>", "https://hostile.example/"));
  assert.equal(entries.length, 1);
  assert.equal(entries[0].url, "https://hostile.example/");
});

test("IEEE Xplore: the paper of xplGlobal.document.metadata (the shape IEEE's document pages write)", () => {
  const metadata = {
    title: "Deep Residual Learning for Image Recognition", articleNumber: "7780459", doi: "10.1109/CVPR.2016.90",
    authors: [{ name: "Kaiming He", affiliation: ["Microsoft Research"] }, { name: "Xiangyu Zhang", affiliation: ["Microsoft Research"] }],
    abstract: "Deeper neural networks are more difficult to train.", publicationTitle: "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
    isConference: true, startPage: "770", endPage: "778", publisher: "IEEE", publicationDate: "June 2016", pdfUrl: "/stamp/stamp.jsp?tp=&arnumber=7780459",
  };
  const html = `<!DOCTYPE html><html><head><title>Deep Residual Learning for Image Recognition | IEEE Conference Publication | IEEE Xplore</title>
    <meta property="og:title" content="Deep Residual Learning for Image Recognition"></head><body><div id="LayoutWrapper"></div>
    <script type="text/javascript">var xplGlobal = {document: {}};\n\txplGlobal.document.metadata=${JSON.stringify(metadata)};\n\txplGlobal.document.userLoggedIn=false;</script></body></html>`;
  const [p] = findPapersOnPage(htmlDocument(html, "https://ieeexplore.ieee.org/document/7780459"));
  assert.equal(p.title, metadata.title);
  assert.deepEqual(p.authors, ["Kaiming He", "Xiangyu Zhang"]);
  assert.equal(p.booktitle, metadata.publicationTitle);
  assert.equal(p.pages, "770--778");
  assert.equal(p.doi, "10.1109/cvpr.2016.90");
  assert.equal(p.published, "2016-06");
  assert.equal(p.entry_type, "inproceedings");
  assert.equal(p.pdf_url, "https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=7780459");
});

test("IEEE Xplore's PDF tab (a real stamp page): no bar, and the tab, its frame's PDF and the document are one paper", () => {
  const stamp = SITE_PAGES.find((x) => x.file === "ieee/ieeexplore.ieee.org-stamp-9056993.html");
  const doc = load(stamp.file, stamp.url);
  assert.deepEqual(findPaperElements(doc), []);
  const frame = doc.querySelector("iframe[src]").getAttribute("src");
  assert.match(frame, /\.pdf\?/);
  const document = SITE_PAGES.find((x) => x.file === "ieee/ieeexplore.ieee.org-document-9056993.html");
  for (const url of [stamp.url, frame, document.paper.pdf_url]) assert.deepEqual(identitiesOfUrl(url), identitiesOfUrl(document.url), url);
  assert.deepEqual(identitiesOfUrl(document.url), ["ieee:9056993"]);
});

test("a citation_pdf_url that is a DOI resolver's address is the DOI, not a PDF", () => {
  const doc = page(`<meta name="citation_title" content="T"><meta name="citation_pdf_url" content="https://doi.org/10.1177/23998083221081530">`);
  const m = readEmbeddedMetadata(doc);
  assert.equal(m.pdf_url, null);
  assert.equal(m.doi, "10.1177/23998083221081530");
  const pdf = readEmbeddedMetadata(page(`<meta name="citation_title" content="T"><meta name="citation_pdf_url" content="https://journal.example.org/doi.org/10.1/x.pdf">`));
  assert.equal(pdf.pdf_url, "https://journal.example.org/doi.org/10.1/x.pdf");
});

test("OpenReview forum: the note in __NEXT_DATA__ (API v2 values) fills what the tags lack", () => {
  const note = { id: "YicbFdNTTy", pdate: 1714521600000, content: {
    title: { value: "An Image is Worth 16x16 Words" }, authors: { value: ["Alexey Dosovitskiy", "Lucas Beyer"] },
    abstract: { value: "While the Transformer architecture has become the de-facto standard…" }, venue: { value: "ICLR 2021 Oral" },
    pdf: { value: "/pdf/abc.pdf" } } };
  const html = `<!DOCTYPE html><html><head><title>An Image is Worth 16x16 Words | OpenReview</title>
    <meta name="citation_title" content="An Image is Worth 16x16 Words"><meta name="citation_online_date" content="2020/10/02"></head>
    <body><main><h2>An Image is Worth 16x16 Words</h2></main>
    <script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { forumNote: note } } })}</script></body></html>`;
  const [p] = findPapersOnPage(htmlDocument(html, "https://openreview.net/forum?id=YicbFdNTTy"));
  assert.deepEqual(p.authors, ["Alexey Dosovitskiy", "Lucas Beyer"]);
  assert.equal(p.booktitle, "ICLR 2021 Oral");
  assert.equal(p.published, "2020-10-02", "the tags' date first");
  assert.equal(p.pdf_url, "https://openreview.net/pdf/abc.pdf");
  assert.equal(p.entry_type, "inproceedings");
});

// ---- where marks may go, the per-site switch, the toolbar's reader --------------------------

test("saved state goes in the page only on alphaXiv, arXiv and the named listing sites", () => {
  assert.ok(marksInPage("https://www.alphaxiv.org/abs/2603.00001"));
  assert.ok(marksInPage("https://arxiv.org/list/cs.CL/new"));
  assert.ok(!marksInPage("https://www.nature.com/articles/s41586-021-03819-2"));
  assert.ok(!marksInPage("https://arxiv.org.evil.example/abs/1"));
  assert.ok(!marksInPage("not a url"));
});

test("the bar switched off per site: a host and its subdomains, written any way", () => {
  assert.equal(normalizeHost(" https://www.Nature.com/articles/x "), "nature.com");
  assert.equal(normalizeHost("not a host"), null);
  assert.ok(barIsOffOn(["nature.com"], "www.nature.com"));
  assert.ok(barIsOffOn(["https://nature.com/"], "idp.nature.com"));
  assert.ok(!barIsOffOn(["nature.com"], "notnature.com"));
  assert.ok(!barIsOffOn(undefined, "nature.com"));
});

test("the toolbar's reader of a tab: the same adapters, as a save body", () => {
  const p = SITE_PAGES.find((x) => x.site === "pmc");
  const body = pageSavePayload(load(p.file, p.url), p.url);
  assert.equal(body.title, "GenBank");
  assert.equal(body.journal, "Nucleic Acids Research");
  assert.equal(body.pdf_url, "https://pmc.ncbi.nlm.nih.gov/articles/PMC3531190/pdf/gks1195.pdf");
  assert.equal(pageSavePayload(load("genders/genders_g58_fairlie.html", "https://www.genders.org/g58/g58_fairlie.html")), null);
});

// ---- the all-pages detector (content/detect.js) ------------------------------------------------

const detectSource = fs.readFileSync(new URL("../../extension/content/detect.js", import.meta.url), "utf8");
const detect = new Function(`${detectSource.slice(0, detectSource.indexOf("(async () =>"))}; return papershelfMayDescribePaper;`)();
/** linkedom keeps no document.scripts (a browser's own list of the document's scripts): give it one. */
function mayDescribePaper(doc, href) {
  if (!doc.scripts) Object.defineProperty(doc, "scripts", { value: doc.querySelectorAll("script") });
  return detect(doc, href);
}

test("the detector says yes on every paper page and no on the pages without one", () => {
  for (const p of SITE_PAGES) {
    const doc = load(p.file, p.url);
    if (p.paper) assert.ok(mayDescribePaper(doc, p.url), `${p.site}: loads the readers`);
    else if (p.detector === false) assert.ok(!mayDescribePaper(doc, p.url), `${p.site}: does nothing`);
  }
  assert.ok(!mayDescribePaper(load("notpapers/guardian-1.html", "https://www.theguardian.com/x"), "https://www.theguardian.com/x"));
  assert.ok(!mayDescribePaper(load("notpapers/wikipedia-2.html", "https://en.wikipedia.org/wiki/New_Zealand"), "https://en.wikipedia.org/wiki/New_Zealand"));
  assert.ok(mayDescribePaper(htmlDocument("<html><head></head><body></body></html>", "https://ieeexplore.ieee.org/document/1"), "https://ieeexplore.ieee.org/document/1"));
});

test("ACM: an article's page views are read; its PDF views, a proceedings' page and other hosts are not", async () => {
  const { acm } = await import("../../extension/lib/adapters/sites/acm.js");
  const at = (url) => acm.match(new URL(url));
  for (const view of ["", "abs/", "full/", "fullHtml/"]) assert.equal(at(`https://dl.acm.org/doi/${view}10.1145/3442188.3445922`), true, view);
  for (const url of ["https://dl.acm.org/doi/pdf/10.1145/3442188.3445922", "https://dl.acm.org/doi/epdf/10.1145/3442188.3445922",
    "https://dl.acm.org/doi/proceedings/10.1145/3442188", "https://dl.acm.org/toc/cacm/2020/63/1", "https://example.org/doi/10.1145/3442188.3445922"]) {
    assert.equal(at(url), false, url);
  }
});
