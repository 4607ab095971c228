// lib/pdf.js: the reader's addresses, a page's text from pdf.js's items, where a PDF highlight
// lies in a new version (another page too), what a PDF's metadata says, arXiv's redirect rules.
import assert from "node:assert/strict";
import test from "node:test";
import { readFileSync } from "node:fs";
import { describeRange } from "../../extension/lib/anchoring.js";
import {
  ARXIV_PDF_REGEX,
  arxivPaperOfPdf,
  doiIn,
  fileFromSearch,
  findOnPages,
  isPdfTabUrl,
  namesAFile,
  originalPdfRule,
  pageText,
  paperFromPdfMetadata,
  pdfOfReaderUrl,
  pdfUrlOf,
  readerFragment,
  readerUrl,
  redirectRules,
  titleFromFirstPage,
} from "../../extension/lib/pdf.js";

const BASE = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/";

test("the reader's address carries the PDF's, encoded, and a page and highlight after #", () => {
  const url = readerUrl(BASE, "https://openreview.net/pdf?id=a&b=c", { page: 3, highlight: 12 });
  assert.equal(url, `${BASE}reader/reader.html?file=https%3A%2F%2Fopenreview.net%2Fpdf%3Fid%3Da%26b%3Dc#page=3&papershelf-highlight=12`);
  const u = new URL(url);
  assert.equal(fileFromSearch(u.search), "https://openreview.net/pdf?id=a&b=c");
  assert.deepEqual(readerFragment(u.hash), { page: 3, highlight: "12" });
  assert.equal(readerUrl(BASE, "https://arxiv.org/pdf/2603.30493"), `${BASE}reader/reader.html?file=https%3A%2F%2Farxiv.org%2Fpdf%2F2603.30493`);
});

test("the redirect's unencoded address is read as it stands, its own query included", () => {
  assert.equal(fileFromSearch("?file=https://arxiv.org/pdf/2603.30493v2"), "https://arxiv.org/pdf/2603.30493v2");
  assert.equal(fileFromSearch("?file=https://export.arxiv.org/pdf/2603.30493?download=1&x=2"), "https://export.arxiv.org/pdf/2603.30493?download=1&x=2");
});

for (const bad of ["", "?", "?file=", "?file=javascript%3Aalert(1)", "?file=javascript:alert(1)", "?file=file%3A%2F%2F%2Fetc%2Fpasswd",
  "?file=data:application/pdf;base64,JVBERi0=", "?file=%E0%A4%A", "?other=https://arxiv.org/pdf/1", "?file=chrome-extension://x/y.pdf"]) {
  test(`not a PDF address the reader opens: ${JSON.stringify(bad)}`, () => {
    assert.equal(fileFromSearch(bad), null);
  });
}

test("a reader tab's address gives the PDF it shows; any other address gives nothing", () => {
  assert.equal(pdfOfReaderUrl(BASE, `${BASE}reader/reader.html?file=https://arxiv.org/pdf/2603.30493v2`), "https://arxiv.org/pdf/2603.30493v2");
  assert.equal(pdfOfReaderUrl(BASE, readerUrl(BASE, "https://openreview.net/pdf?id=a&b=c", { page: 2 })), "https://openreview.net/pdf?id=a&b=c");
  assert.equal(pdfOfReaderUrl(BASE, "https://arxiv.org/pdf/2603.30493v2"), null);
  assert.equal(pdfOfReaderUrl(BASE, "moz-extension://other-uuid/reader/reader.html?file=https://arxiv.org/pdf/1"), null);
  assert.equal(pdfOfReaderUrl(BASE, `${BASE}options/options.html`), null);
  assert.equal(pdfOfReaderUrl("", "reader/reader.html?file=https://arxiv.org/pdf/1"), null);
  assert.equal(pdfOfReaderUrl(BASE, undefined), null);
});

test("a fragment names a page and a highlight, or nothing", () => {
  assert.deepEqual(readerFragment("#page=7"), { page: 7, highlight: null });
  assert.deepEqual(readerFragment("#papershelf-highlight=queued-1f2e"), { page: null, highlight: "queued-1f2e" });
  assert.deepEqual(readerFragment("#page=0&papershelf-highlight=<x>"), { page: null, highlight: null });
  assert.deepEqual(readerFragment(""), { page: null, highlight: null });
});

test("a paper's PDF link: the adapter's pdf_url, else arXiv's; the arXiv paper a PDF URL names", () => {
  assert.equal(pdfUrlOf({ arxiv_id: "2603.30493", version: 2 }), "https://arxiv.org/pdf/2603.30493");
  assert.equal(pdfUrlOf({ arxiv_id: "2603.30493", pdf_url: "https://openreview.net/pdf?id=x" }), "https://openreview.net/pdf?id=x");
  assert.equal(pdfUrlOf({ pdf_url: "javascript:alert(1)" }), null);
  assert.equal(pdfUrlOf({ url: "https://example.org/paper" }), null);
  assert.deepEqual(arxivPaperOfPdf("https://arxiv.org/pdf/2603.30493v2"), { arxiv_id: "2603.30493", version: 2 });
  assert.deepEqual(arxivPaperOfPdf("https://export.arxiv.org/pdf/hep-th/9901001v1.pdf"), { arxiv_id: "hep-th/9901001", version: 1 });
  assert.equal(arxivPaperOfPdf("https://arxiv.org.evil.example/pdf/2603.30493"), null);
  assert.equal(arxivPaperOfPdf("https://proceedings.mlr.press/v235/a24a/a24a.pdf"), null);
  assert.ok(isPdfTabUrl("https://proceedings.mlr.press/v235/a24a/a24a.pdf"));
  assert.ok(isPdfTabUrl("https://arxiv.org/pdf/2603.30493"));
  assert.ok(isPdfTabUrl("https://openreview.net/pdf?id=abc"));
  assert.ok(!isPdfTabUrl("https://arxiv.org/abs/2603.30493"));
  assert.ok(!isPdfTabUrl("file:///home/me/paper.pdf"));
});

test("a page's text: items joined, an end of line a space, artifacts left out, as the text layer reads", () => {
  const items = [
    { str: "The ﬁrst line ends with a hyphen- ", hasEOL: true },
    { type: "beginMarkedContent", tag: "Artifact" },
    { str: "Running head", hasEOL: true },
    { type: "endMarkedContent" },
    { str: "ated word", hasEOL: false },
    { str: "", hasEOL: true },
    { type: "beginMarkedContentProps", tag: "P" },
    { str: "x", hasEOL: false },
    { str: "2", hasEOL: false },
    { str: " + y\u0301", hasEOL: false },
    { type: "endMarkedContent" },
  ];
  assert.equal(pageText(items), "The ﬁrst line ends with a hyphen- ated word x2 + ý");
  assert.equal(pageText([]), "");
  assert.equal(pageText([{ str: "   ", hasEOL: true }]), "");
});

const V1 = [
  "Asymmetric Actor-Critic Abstract The actor answers the user.",
  "2 Method In our design the critic reads the whole trajectory before it decides to intervene. Then a one-sided advantage estimate keeps the critic from rewarding its own interventions.",
  "3 Analysis In our logs interventions cluster in the first three turns of a conversation. The end.",
];
const V2 = [
  V1[0],
  "2 Related work In step 7.0 the policy informs the critic about what happened before.",
  "3 Method In our design the critic reads the whole trajectory before it decides to intervene. Then a one-sided advantage estimator keeps the critic from rewarding its own interventions.",
  "4 Analysis The end.",
];

function onPage(texts, page, quote) {
  const start = texts[page - 1].indexOf(quote);
  return { page, ...describeRange(texts[page - 1], start, start + quote.length) };
}

test("a PDF highlight on its own page is placed by the one anchoring algorithm", () => {
  const h = onPage(V1, 2, "the critic reads the whole trajectory");
  assert.deepEqual(findOnPages(V1, h), { page: 2, start: h.start, end: h.end, method: "position" });
});

test("in a new version: moved to another page (by its quote), moved and edited (fuzzy), gone (an orphan)", () => {
  const moved = onPage(V1, 2, "the critic reads the whole trajectory before it decides to intervene");
  const at = findOnPages(V2, moved);
  assert.equal(at.page, 3);
  assert.equal(at.method, "quote");
  assert.equal(V2[2].slice(at.start, at.end), moved.exact);
  const edited = onPage(V1, 2, "a one-sided advantage estimate keeps the critic from rewarding");
  const fuzzy = findOnPages(V2, edited);
  assert.equal(fuzzy.page, 3);
  assert.equal(fuzzy.method, "fuzzy");
  assert.equal(V2[2].slice(fuzzy.start, fuzzy.end), "a one-sided advantage estimator keeps the critic from rewarding");
  assert.equal(findOnPages(V2, onPage(V1, 3, "interventions cluster in the first three turns")), null);
  // A page past the end of a shorter version: looked for on the others (a renumbered heading is
  // one edit away; related work the older version lacks is nowhere).
  assert.deepEqual(findOnPages(V1, onPage(V2, 4, "4 Analysis")), { page: 3, start: 0, end: 10, method: "fuzzy" });
  assert.equal(findOnPages(V1.slice(0, 1), onPage(V2, 2, "the policy informs the critic about")), null);
  assert.equal(findOnPages(V1.slice(0, 2), moved).page, 2);
});

test("the nearest page wins when a quote is on several", () => {
  const texts = ["same words here", "other", "other", "same words here", "h"];
  const h = { page: 5, exact: "same words", prefix: "", suffix: " here", start: 0, end: 10 };
  assert.equal(findOnPages(texts, h).page, 4);
});

test("what a PDF says of its paper: metadata first, then its first page", () => {
  const xmp = new Map([["dc:title", "Sparse Rewards in Two Columns"], ["dc:creator", ["Ada Lovelace", "Alan Turing"]], ["prism:doi", "10.5555/ABC.1"]]);
  assert.deepEqual(paperFromPdfMetadata({ info: { Title: "untitled" }, metadata: xmp }), {
    title: "Sparse Rewards in Two Columns", authors: ["Ada Lovelace", "Alan Turing"], doi: "10.5555/abc.1",
  });
  const info = { Title: "A  Title\n", Author: "Ada Lovelace; Alan Turing", Custom: new Map([["doi", "10.5555/papershelf.2026.42"]]) };
  assert.deepEqual(paperFromPdfMetadata({ info }), { title: "A Title", authors: ["Ada Lovelace", "Alan Turing"], doi: "10.5555/papershelf.2026.42" });
  // No metadata: the first page's largest text in its upper half, a DOI printed on it.
  const first = [
    { str: "Journal of Tests", transform: [9, 0, 0, 9, 72, 760] },
    { str: "A Study of", transform: [17, 0, 0, 17, 72, 700] },
    { str: "Big Titles", transform: [17, 0, 0, 17, 72, 680] },
    { str: "doi:10.1234/XYZ.5.", transform: [9, 0, 0, 9, 72, 650] },
    { str: "Footnote in large type", transform: [30, 0, 0, 30, 72, 100] },
  ];
  assert.deepEqual(paperFromPdfMetadata({ info: { Title: "Microsoft Word - draft7.docx" }, firstPage: first, pageHeight: 792 }), {
    title: "A Study of Big Titles", authors: [], doi: "10.1234/xyz.5",
  });
  assert.deepEqual(paperFromPdfMetadata({}), { title: "", authors: [], doi: null });
  assert.equal(titleFromFirstPage([], 792), "");
  assert.equal(doiIn("see https://doi.org/10.1145/3290605.3300233)."), "10.1145/3290605.3300233");
});

test("arXiv's PDFs, with or without a fragment, go to the reader; the fragment becomes the reader's", () => {
  const readerBase = `${BASE}reader/reader.html`;
  const [rule] = redirectRules(readerBase, { arxiv: true });
  assert.deepEqual(rule.condition.resourceTypes, ["main_frame"]);
  const re = new RegExp(ARXIV_PDF_REGEX);
  const substitute = (url) => url.replace(re, rule.action.redirect.regexSubstitution.replace("\\1", "$1").replace("\\2", "$2"));
  assert.equal(substitute("https://arxiv.org/pdf/2603.30493v2"), `${readerBase}?file=https://arxiv.org/pdf/2603.30493v2`);
  const linked = new URL(substitute("https://arxiv.org/pdf/2603.30493#page=3&papershelf-highlight=5"));
  assert.equal(fileFromSearch(linked.search), "https://arxiv.org/pdf/2603.30493");
  assert.deepEqual(readerFragment(linked.hash), { page: 3, highlight: "5" });
  for (const other of ["https://arxiv.org/abs/2603.30493", "https://arxiv.org/pdf/2603.30493?download=1", "http://arxiv.org/pdf/1", "https://arxiv.org.evil.example/pdf/1"]) {
    assert.ok(!re.test(other), other);
  }
  assert.deepEqual(redirectRules(readerBase, { arxiv: false }), []);
  const allow = originalPdfRule(1007, "https://arxiv.org/pdf/2603.30493", 7);
  assert.deepEqual(allow.condition.tabIds, [7]);
  assert.ok(allow.priority > rule.priority && allow.action.type === "allow");
});

test("words on every page: the page whose text around them agrees with the stored context wins", () => {
  const texts = [
    "Intro. so that a single attempt succeeds. Then the intro ends.",
    "Method. so that a single attempt succeeds. Then the method ends.",
    "New page. Analysis. In our logs, so that a single attempt succeeds. The analysis ends.",
  ];
  const v1 = ["Intro. so that a single attempt succeeds. Then the intro ends.", "Analysis. In our logs, so that a single attempt succeeds. The analysis ends."];
  const h = onPage(v1, 2, "so that a single attempt succeeds");
  assert.equal(findOnPages(v1, h).method, "position");
  const at = findOnPages(texts, h);
  assert.equal(at.page, 3, "not page 2, which has the words but not their context");
  assert.equal(texts[2].slice(at.start, at.end), h.exact);
});

const TITLES = JSON.parse(readFileSync(new URL("../shared/titles.json", import.meta.url), "utf8"));

test("a file's name or a tool's placeholder is no title, as the server's rule says (shared cases)", () => {
  for (const title of TITLES.file_names) assert.ok(namesAFile(title), title);
  for (const title of TITLES.titles) assert.ok(!namesAFile(title), title);
  const meta = paperFromPdfMetadata({ info: { Title: "Microsoft Word - FAccT21-final.docx" }, metadata: { "dc:title": "3442188.3445922.pdf" } });
  assert.equal(meta.title, "", "neither becomes the paper's title");
});
