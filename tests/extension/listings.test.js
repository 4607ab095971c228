/** The listing adapters on saved listing pages (tests/fixtures/pages/listings/, origins in its
 * MANIFEST.md): every entry found, each with the identities, title and authors the page shows
 * (expected.json, read off each page); the marks only on the named listing hosts. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { htmlDocument, PAGES } from "./helpers.js";
import { LISTING_ADAPTERS, LISTING_HOSTS, listingAdapterFor, listingEntries } from "../../extension/lib/adapters/listings/index.js";
import { identitiesOf } from "../../extension/lib/identities.js";
// The adapter registry: lib/adapters/index.js, or, before the adapters moved into their folder,
// lib/adapters.js.
const { describePaper, findPaperElements, paperFields, toSavePayload } = await import("../../extension/lib/adapters/index.js")
  .catch(() => import("../../extension/lib/adapters.js"));
import { paperKey } from "../../extension/lib/ids.js";

const DIR = path.join(PAGES, "listings");
const EXPECTED = JSON.parse(fs.readFileSync(path.join(DIR, "expected.json"), "utf8"));

/** A saved page at its address. A saved fragment (a site's result list as a scraper's test data
 * keeps it, without <html>) is read as a browser reads it: into the body of an empty document. */
function load(file, url) {
  const html = fs.readFileSync(path.join(DIR, file), "utf8");
  return htmlDocument(/<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`, url);
}

test("pages.json names every saved listing page, at the address expected.json reads it at", () => {
  const pages = JSON.parse(fs.readFileSync(path.join(DIR, "pages.json"), "utf8"));
  assert.deepEqual(pages.map((p) => [p.site, p.file, p.url]), EXPECTED.map((p) => [p.site, p.file, p.url]));
  const saved = fs.readdirSync(DIR).filter((f) => f.endsWith(".html")).sort();
  assert.deepEqual([...pages.map((p) => p.file)].sort(), saved, "every saved page is listed, once");
});

for (const page of EXPECTED) {
  test(`${page.site}: ${page.file} — ${page.entries.length} papers, each with its identities`, () => {
    const doc = load(page.file, page.url);
    assert.equal(listingAdapterFor(page.url).name, page.site);
    const entries = findPaperElements(doc);
    assert.equal(entries.length, page.entries.length);
    assert.equal(new Set(entries.map((e) => e.element)).size, entries.length, "one element per paper");
    for (const [i, want] of page.entries.entries()) {
      const e = entries[i];
      assert.equal(e.kind, "listing");
      assert.equal(paperKey(e), want.key, want.title);
      assert.deepEqual(e.identities, want.identities, want.title);
      assert.equal(e.paper.title, want.title);
      assert.deepEqual(e.paper.authors, want.authors, want.title);
      for (const k of ["venue", "year", "doi", "pdfUrl"]) assert.equal(e.paper[k] == null ? undefined : String(e.paper[k]), want[k], `${want.title}: ${k}`);
      // No entry holds another: each paper's controls go in its own element.
      for (const other of entries) if (other !== e) assert.ok(!e.element.contains(other.element));
    }
  });
}

test("the save payload of a listed paper: title, authors, venue, year, DOI, the listing as source", () => {
  const page = EXPECTED.find((p) => p.file === "pubmed_search.html");
  const doc = load(page.file, page.url);
  const [first] = findPaperElements(doc);
  const body = toSavePayload(describePaper(first, doc), page.url);
  assert.deepEqual(
    { title: body.title, authors: body.authors, doi: body.doi, url: body.url, journal: body.journal, published: body.published, source_url: body.source_url },
    { title: "The CRISPR tool kit for genome editing and beyond", authors: ["Adli M"], doi: "10.1038/s41467-018-04252-2",
      url: "https://pubmed.ncbi.nlm.nih.gov/29765029/", journal: "Nat Commun", published: "2018", source_url: page.url },
  );
  const acl = EXPECTED.find((p) => p.file === "acl_author.html");
  const aclDoc = load(acl.file, acl.url);
  const entry = findPaperElements(aclDoc)[1];
  const paper = describePaper(entry, aclDoc);
  assert.equal(paper.booktitle, "Proceedings of the 16th Workshop on Computational Research in Phonetics, Phonology, and Morphology");
  assert.match(paper.abstract, /^This paper describes the AX Semantics’ submission/);
  assert.equal(paperFields(entry, aclDoc).abstract.id, "abstract-W19-4201", "the abstract block is the field highlights anchor in");
  // A conference paper on a real dblp page (its record typed only "Publication"): a booktitle.
  const dblp = EXPECTED.find((p) => p.file === "dblp_search_2024.html");
  const dblpDoc = load(dblp.file, dblp.url);
  const esem = describePaper(findPaperElements(dblpDoc)[0], dblpDoc);
  assert.deepEqual([esem.booktitle, esem.journal, esem.doi, esem.published], ["ESEM", undefined, "10.1109/esem56168.2023.10304796", "2023"]);
  const corr = describePaper(findPaperElements(dblpDoc)[1], dblpDoc);
  assert.deepEqual([corr.journal, corr.booktitle], ["CoRR", undefined]);
  const arxiv = EXPECTED.find((p) => p.file === "arxiv_search.html");
  const arxivDoc = load(arxiv.file, arxiv.url);
  const mamba = describePaper(findPaperElements(arxivDoc)[0], arxivDoc);
  assert.equal(toSavePayload(mamba).arxiv_id, "2312.00752");
  assert.ok(mamba.abstract.endsWith("make several improvements."), "the full abstract, without its “△ Less”");
});

test("only the named listing hosts are read as listings: a Scholar page elsewhere marks nothing", () => {
  const page = EXPECTED.find((p) => p.file === "scholar_results_2020.html");
  for (const url of ["https://scholar.google.com.evil.example/scholar?q=x", "https://evil.example/scholar?q=x", "http://127.0.0.1:8000/scholar?q=x", "file:///scholar"]) {
    const doc = load(page.file, url);
    assert.equal(listingAdapterFor(url), null, url);
    assert.equal(listingEntries(doc), null, url);
    assert.ok(findPaperElements(doc).every((e) => e.kind !== "listing"), url);
  }
  // A hostile page that fakes 1,000 DOI-bearing results on its own host is no listing either.
  const rows = Array.from({ length: 1000 }, (_, i) =>
    `<div><h3><a href="https://doi.org/10.1000/fake.${i}">Paper ${i}</a></h3><a href="/scholar?q=related:c${i}:scholar.google.com/">Related</a></div>`).join("");
  const hostile = htmlDocument(`<html><body>${rows}</body></html>`, "https://hostile.example/scholar?q=doi");
  assert.equal(listingEntries(hostile), null);
  // The same page served at Scholar's address is read: the host, not the page, decides.
  assert.equal(listingEntries(htmlDocument(`<html><body>${rows}</body></html>`, "https://scholar.google.com/scholar?q=doi")).length, 1000);
  for (const a of LISTING_ADAPTERS) for (const h of a.hosts) assert.ok(LISTING_HOSTS.has(h));
});

test("LISTING_ADAPTERS in the registry's shape: host and path in match, entries of kind listing, their describer", () => {
  for (const page of EXPECTED) {
    const loc = new URL(page.url);
    const matching = LISTING_ADAPTERS.filter((a) => a.match(loc));
    assert.deepEqual(matching.map((a) => a.name), [page.site], page.file);
    const doc = load(page.file, page.url);
    const entries = matching[0].find(doc);
    assert.ok(entries.every((e) => e.kind === "listing" && e.element), page.file);
    const d = matching[0].describe.listing(entries[0], doc);
    assert.equal(d.title, page.entries[0].title);
    assert.equal(matching[0].fields.listing(entries[0], doc), entries[0].fields);
  }
  // The path alone is no match: another host's /scholar, /group or /search/ is not a listing.
  for (const url of ["https://dblp.org/scholar?q=x", "https://arxiv.org/group?id=ICLR.cc/2024/Conference", "https://pubmed.ncbi.nlm.nih.gov/search/?query=x"]) {
    assert.deepEqual(LISTING_ADAPTERS.filter((a) => a.match(new URL(url))).map((a) => a.name), [], url);
  }
});

test("other pages of a listing host are not listings (a paper page, the home page)", () => {
  for (const url of ["https://scholar.google.com/citations?user=x", "https://dblp.org/", "https://aclanthology.org/2023.acl-long.1/",
    "https://openreview.net/forum?id=ZYm1Ql6udy", "https://proceedings.mlr.press/v202/li23q.html", "https://huggingface.co/papers/2312.00752",
    "https://arxiv.org/abs/2312.00752", "https://arxiv.org/list/cs.LG/new", "https://pubmed.ncbi.nlm.nih.gov/29765029/"]) {
    assert.equal(listingAdapterFor(url), null, url);
  }
});

test("our own controls in an entry and later runs change nothing; a re-rendered list is read again", () => {
  for (const page of EXPECTED) {
    const doc = load(page.file, page.url);
    const before = findPaperElements(doc);
    for (const e of before) {
      const ui = doc.createElement("span");
      ui.setAttribute("data-papershelf-ui", "controls");
      const a = doc.createElement("a");
      a.setAttribute("href", "https://arxiv.org/abs/2401.00001");
      a.textContent = "Saved as Someone2024";
      ui.append(a);
      e.element.append(ui);
    }
    const after = findPaperElements(doc);
    assert.deepEqual(after.map((e) => [paperKey(e), e.paper.title]), before.map((e) => [paperKey(e), e.paper.title]), page.file);
    assert.deepEqual(after.map((e) => e.element), before.map((e) => e.element), page.file);
  }
});

test("ugly links: javascript:, broken URLs, look-alike hosts and empty titles are not papers", () => {
  const html = `<html><body><ul>
    <li><a href="javascript:alert(1)">/2023.acl-long.1/</a></li>
    <li><a href="http://[::1">/W18-6560/</a></li>
    <li><a href="https://aclanthology.org.evil.example/2023.acl-long.5/">A look-alike host</a> <a href="/people/x/">X</a></li>
    <li><a href="/2023.acl-long.7/">   </a></li>
    <li><a href="/2023.acl-long.0/">Front matter</a></li>
    <li><strong><a href="/2023.acl-long.9/">A real one</a></strong> <a href="/people/ada/">Ada &nbsp; Lovelace</a></li>
  </ul></body></html>`;
  const doc = htmlDocument(html, "https://aclanthology.org/volumes/2023.acl-long/");
  const found = findPaperElements(doc);
  assert.deepEqual(found.map((e) => paperKey(e)), ["https://aclanthology.org/2023.acl-long.9/"]);
  assert.deepEqual(found[0].paper.authors, ["Ada Lovelace"]);
});

test("a listed paper's identities are identitiesOf's for its id, DOI and addresses (the one rule)", () => {
  for (const page of EXPECTED) {
    for (const e of listingEntries(load(page.file, page.url))) {
      const p = e.paper;
      assert.deepEqual(e.identities, identitiesOf({ url: p.url, doi: p.doi, arxivId: p.arxivId, pdfUrl: p.pdfUrl, extraUrls: p.extraUrls }), `${page.file}: ${p.title}`);
    }
  }
});

test("100 Scholar results: each found once, under its own key (bench/page.py times it)", () => {
  const page = EXPECTED.find((p) => p.file === "scholar_results_2020.html");
  const html = fs.readFileSync(path.join(DIR, page.file), "utf8");
  const doc = htmlDocument(html, page.url);
  const rows = [...doc.querySelectorAll("[data-cid]")];
  const list = rows[rows.length - 1].parentElement;
  for (let copy = 1; doc.querySelectorAll("[data-cid]").length < 100; copy++) {
    for (const row of rows) {
      const clone = row.cloneNode(true);
      for (const a of clone.querySelectorAll("a[href]")) {
        a.setAttribute("href", a.getAttribute("href").replace(/related:([\w-]+):/, `related:$1x${copy}:`).replace(/^(https?:\/\/[^?#]+)\??/, `$1?copy=${copy}&`));
      }
      list.append(clone);
    }
  }
  const found = findPaperElements(doc);
  // 9 of the page's 10 results have a title link (the [CITATION] has none): 90 of 100.
  assert.equal(found.length, 90);
  assert.equal(new Set(found.map(paperKey)).size, found.length);
});

test("older layouts: a NeurIPS year before 2022 (`<a>` then `<i>` authors), PMLR over http", () => {
  const neurips = htmlDocument(`<html><body><div class="container-fluid"><ul>
    <li><a href="/paper_files/paper/2019/hash/0118a063b4aae95277f0bc1752c75abf-Abstract.html">PyTorch: An Imperative Style, High-Performance Deep Learning Library</a> <i>Adam Paszke, Sam Gross, Francisco Massa</i></li>
    <li><a href="/paper_files/paper/2019/hash/c04c19c2c2474dbf5f7ac4372c5b9af1-Abstract.html">Fast and Accurate Least-Mean-Squares Solvers</a> <i>Alaa Maalouf, Ibrahim Jubran, Dan Feldman</i></li>
  </ul></div></body></html>`, "https://proceedings.neurips.cc/paper_files/paper/2019");
  const found = findPaperElements(neurips);
  assert.deepEqual(found.map((e) => e.identities[0]), ["neurips:0118a063b4aae95277f0bc1752c75abf", "neurips:c04c19c2c2474dbf5f7ac4372c5b9af1"]);
  assert.deepEqual(found[0].paper.authors, ["Adam Paszke", "Sam Gross", "Francisco Massa"]);
  assert.equal(found[0].pdf_url, "https://proceedings.neurips.cc/paper_files/paper/2019/file/0118a063b4aae95277f0bc1752c75abf-Paper.pdf");
  const pmlr = htmlDocument(`<html><body><h2>Volume 37: International Conference on Machine Learning, 7-9 July 2015, Lille, France</h2>
    <div class="paper"><p class="title">Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift</p>
    <p class="details"><span class="authors">Sergey Ioffe, Christian Szegedy</span>; <span class="info">Proceedings of the 32nd International Conference on Machine Learning, PMLR 37:448-456</span></p>
    <p class="links">[<a href="http://proceedings.mlr.press/v37/ioffe15.html">abs</a>][<a href="http://proceedings.mlr.press/v37/ioffe15.pdf">pdf</a>]</p></div></body></html>`, "http://proceedings.mlr.press/v37/");
  const [bn] = findPaperElements(pmlr);
  assert.deepEqual([bn.identities, bn.paper.year, bn.paper.pages, bn.paper.authors, bn.pdf_url],
    [["pmlr:v37/ioffe15"], "2015", "448-456", ["Sergey Ioffe", "Christian Szegedy"], "http://proceedings.mlr.press/v37/ioffe15.pdf"]);
});
