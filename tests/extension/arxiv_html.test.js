import { test } from "node:test";
import assert from "node:assert/strict";
import { describePaper, findPaperElements, paperFromUrl, sectionOf } from "../../extension/lib/adapters/index.js";
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

// Shapes met in real LaTeXML output (hand-written here, after the structures of real pages):
// an older converter's `div.ltx_document` with `div.ltx_section`/`div.ltx_paragraph`, pretty-printed
// formulas; an abstract of several paragraphs; one \author holding several names with marks.
const OLD_LATEXML = `<html><head><title>An older conversion</title></head><body>
<div class="ltx_page_main"><div class="ltx_page_content">
 <div class="ltx_document ltx_authors_1line">
  <div class="ltx_abstract">
   <h6 class="ltx_title ltx_title_abstract">
    Abstract
   </h6>
   <p class="ltx_p">
    We align two made-up resources.
   </p>
  </div>
  <div class="ltx_section" id="S2">
   <h2 class="ltx_title ltx_title_section">
    <span class="ltx_tag ltx_tag_section">
     2
    </span>
    Alignment
   </h2>
   <div class="ltx_paragraph" id="S2.P1">
    <h5 class="ltx_title ltx_title_paragraph">
     Algorithm.
    </h5>
    <div class="ltx_para" id="S2.P1.p1">
     <p class="ltx_p" id="in-paragraph">
      the threshold
      <math alttext="\\theta" class="ltx_Math" display="inline">
       <mi>
        θ
       </mi>
      </math>
      , and the weight
     </p>
    </div>
   </div>
   <div class="ltx_subsection" id="S2.SS1">
    <h3 class="ltx_title ltx_title_subsection">
     <span class="ltx_tag ltx_tag_subsection">2.1</span>
     Similarity
    </h3>
    <div class="ltx_para"><p class="ltx_p" id="in-subsection">Two components.</p></div>
   </div>
  </div>
 </div>
</div></div></body></html>`;

test("older LaTeXML: a div.ltx_document is the paper, and div sections name a point's section", () => {
  const doc = htmlDocument(OLD_LATEXML, "https://arxiv.org/html/2603.00002v1");
  const entries = findPaperElements(doc);
  assert.equal(entries.length, 1);
  assert.equal(entries[0].element.className, "ltx_document ltx_authors_1line");
  const p = describePaper(entries[0], doc);
  assert.equal(p.abstract, "We align two made-up resources.");
  const body = p.fields.body;
  assert.equal(sectionOf(doc.getElementById("in-paragraph").firstChild, body), "Algorithm.");
  assert.equal(sectionOf(doc.getElementById("in-subsection"), body), "2.1 Similarity");
  assert.match(fieldText(body), /Algorithm\. the threshold \$\\theta\$ , and the weight 2\.1 Similarity/);
});

const ONE_LINE_AUTHORS = `<html><body><div class="ltx_page_content">
<article class="ltx_document ltx_authors_1line">
 <h1 class="ltx_title ltx_title_document">A Paper</h1>
 <div class="ltx_authors"><span class="ltx_creator ltx_role_author">
  <span class="ltx_personname">Ada Lovelace <span class="ltx_text"><sup class="ltx_sup">1</sup></span>
   <span class="ltx_text"><sup class="ltx_sup">*</sup></span>, Charles Babbage <span class="ltx_text"><sup class="ltx_sup">2,</sup></span>
   and Mary Somerville<br class="ltx_break"/>An Institute</span></span>
  <span class="ltx_creator ltx_role_author"><span class="ltx_personname">John Smith, Jr.</span></span></div>
 <div class="ltx_abstract"><h6 class="ltx_title ltx_title_abstract">Abstract</h6>
  <p class="ltx_p">First paragraph.</p>
  <p class="ltx_p">Second   paragraph, with <math alttext="k" class="ltx_Math"><mi>k</mi></math>.</p></div>
 <section class="ltx_section"><h2 class="ltx_title ltx_title_section">1 Intro</h2><p class="ltx_p">Text.</p></section>
</article></div></body></html>`;

test("authors: marks dropped, several names in one \\author split, 'Smith, Jr.' kept whole", () => {
  const doc = htmlDocument(ONE_LINE_AUTHORS, "https://arxiv.org/html/2603.00004v1");
  const p = describePaper(findPaperElements(doc)[0], doc);
  assert.deepEqual(p.authors, ["Ada Lovelace", "Charles Babbage", "Mary Somerville", "John Smith, Jr."]);
});

test("an abstract of several paragraphs is saved whole; its field is the first, a prefix of it", () => {
  const doc = htmlDocument(ONE_LINE_AUTHORS, "https://arxiv.org/html/2603.00004v1");
  const p = describePaper(findPaperElements(doc)[0], doc);
  assert.equal(p.abstract, "First paragraph. Second paragraph, with $k$.");
  assert.equal(fieldText(p.fields.abstract), "First paragraph.");
  assert.ok(p.abstract.startsWith(fieldText(p.fields.abstract)), "offsets in the field hold in the saved text");
  assert.equal(sectionOf(doc.querySelectorAll(".ltx_abstract .ltx_p")[1], p.fields.body), "Abstract");
});
