import { test } from "node:test";
import assert from "node:assert/strict";
import { describePaper, findPaperElements, paperFromUrl, sectionOf } from "../../extension/lib/adapters.js";
import { anchor, describeRange, paint, textModel, fieldText } from "../../extension/lib/anchoring.js";
import { expectedPapers, htmlDocument, loadPage } from "./helpers.js";

// arXiv's HTML view (LaTeXML), as tests/fixtures/pages/build_arxiv_html.py writes it.
const FIRST = expectedPapers()[0];
const URL_V1 = `https://arxiv.org/html/${FIRST.arxiv_id}v1`;
const URL_V2 = `https://arxiv.org/html/${FIRST.arxiv_id}v2`;

test("the article is one paper, with its id and version from the URL", () => {
  const doc = loadPage("arxiv_html_v1.html", URL_V1);
  const entries = findPaperElements(doc);
  assert.equal(entries.length, 1);
  assert.equal(entries[0].arxiv_id, FIRST.arxiv_id);
  assert.equal(entries[0].version, 1);
  assert.equal(entries[0].element.localName, "article");
});

test("described: title, authors without their affiliations, abstract, and the body field", () => {
  const doc = loadPage("arxiv_html_v1.html", URL_V1);
  const p = describePaper(findPaperElements(doc)[0], doc);
  assert.equal(p.title, FIRST.title);
  assert.deepEqual(p.authors, FIRST.authors);
  assert.equal(p.abstract, FIRST.abstract);
  assert.equal(p.fields.body.localName, "article");
  assert.ok(fieldText(p.fields.body).length > 60000, "a whole paper's text");
});

test("the body's text keeps each formula's TeX source, once, and no Content MathML", () => {
  const doc = loadPage("arxiv_html_v1.html", URL_V1);
  const text = textModel(describePaper(findPaperElements(doc)[0], doc).fields.body).text;
  assert.match(text, /the intervention rate \$k=3\$ stays below one in five turns/);
  assert.match(text, /\$\\hat\{A\}_\{t\}=r_\{t\}\+\\gamma V_\{\\phi\}\(s_\{t\+1\}\)-V_\{\\phi\}\(s_\{t\}\)\$/);
  assert.doesNotMatch(text, /application\/x-tex/);
  assert.doesNotMatch(text, /\$k=3\$\s*k=3/, "the glyphs and Content MathML are not read twice");
  assert.equal((text.match(/\$/g) || []).length % 2, 0);
});

test("a point's section is the heading of the innermost section around it", () => {
  const doc = loadPage("arxiv_html_v1.html", URL_V1);
  const article = doc.querySelector("article");
  assert.equal(sectionOf(doc.getElementById("S3.SS2.p1.1").firstChild, article), "3.2 Training the critic");
  assert.equal(sectionOf(doc.getElementById("S1.p1"), article), "1 Introduction");
  assert.equal(sectionOf(doc.getElementById("A1.p1"), article), "Appendix A Prompts and hyperparameters");
  assert.equal(sectionOf(doc.getElementById("id1.id1"), article), "Abstract");
  assert.equal(sectionOf(doc.querySelector("h1"), article), "");
});

test("a highlight made in version 1 is found in version 2: moved, edited (fuzzy), or an orphan", () => {
  const bodyOf = (name, url) => {
    const doc = loadPage(name, url);
    return textModel(describePaper(findPaperElements(doc)[0], doc).fields.body).text;
  };
  const v1 = bodyOf("arxiv_html_v1.html", URL_V1);
  const v2 = bodyOf("arxiv_html_v2.html", URL_V2);
  const made = (quote) => {
    const i = v1.indexOf(quote);
    return describeRange(v1, i, i + quote.length);
  };
  const moved = anchor(v2, made("the critic reads the whole trajectory before it decides to intervene"));
  assert.equal(moved.method, "quote");
  const edited = anchor(v2, made("a one-sided advantage estimate keeps the critic from rewarding"));
  assert.equal(edited.method, "fuzzy");
  assert.equal(v2.slice(edited.start, edited.end), "a one-sided advantage estimator keeps the critic from rewarding");
  assert.equal(anchor(v2, made("interventions cluster in the first three turns of a conversation")), null);
});

test("painting over a formula wraps the whole formula; the text is unchanged", () => {
  const doc = htmlDocument(
    '<div id="p">the rate <math alttext="k=3"><semantics><mi>k</mi><mo>=</mo><mn>3</mn>' +
      '<annotation-xml><ci>k</ci></annotation-xml><annotation>k=3</annotation></semantics></math> stays low</div>',
    URL_V1,
  );
  const p = doc.getElementById("p");
  const model = textModel(p);
  assert.equal(model.text, "the rate $k=3$ stays low");
  const start = model.text.indexOf("rate $k");
  const marks = paint(p, start, start + "rate $k=3$ stays".length, { id: "h", model });
  assert.ok(marks.some((m) => m.firstChild.localName === "math"));
  assert.equal(fieldText(p), model.text);
});

test("a tab's paper from its URL alone: abstract, PDF, HTML, alphaXiv; not a listing or another site", () => {
  assert.deepEqual(paperFromUrl("https://arxiv.org/pdf/2603.30493v2"), { arxiv_id: "2603.30493", version: 2 });
  assert.deepEqual(paperFromUrl("https://arxiv.org/pdf/2603.30493"), { arxiv_id: "2603.30493", version: null });
  assert.deepEqual(paperFromUrl("https://arxiv.org/abs/hep-th/9901001"), { arxiv_id: "hep-th/9901001", version: null });
  assert.deepEqual(paperFromUrl("https://arxiv.org/html/2603.30493v1#S3"), { arxiv_id: "2603.30493", version: 1 });
  assert.deepEqual(paperFromUrl("https://www.alphaxiv.org/overview/2603.30493"), { arxiv_id: "2603.30493", version: null });
  assert.deepEqual(paperFromUrl("https://alphaxiv.org/abs/2603.30493v3"), { arxiv_id: "2603.30493", version: 3 });
  assert.equal(paperFromUrl("https://arxiv.org/list/cs.CL/new"), null);
  assert.equal(paperFromUrl("https://evil.example/abs/2603.30493"), null);
  assert.equal(paperFromUrl("https://arxiv.org.evil.example/pdf/2603.30493"), null);
  assert.equal(paperFromUrl("not a url"), null);
});
