import { test } from "node:test";
import assert from "node:assert/strict";
import { anchor, describeRange, normalizeText, textModel, paint, unpaint, fieldText } from "../../extension/lib/anchoring.js";
import { htmlDocument } from "./helpers.js";

const ABSTRACT =
  "Large language models (LLMs) exhibit strong reasoning and conversational abilities, but ensuring reliable " +
  "behavior in multi-turn interactions remains challenging. In many real-world applications, agents must succeed " +
  "in one-shot settings where retries are impossible. We propose an asymmetric actor-critic framework for " +
  "reliable conversational agents.";

function select(text, quote, nth = 0) {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(quote, i + 1);
  assert.ok(i >= 0, `quote ${quote} in text`);
  return describeRange(text, i, i + quote.length);
}

test("normalizes like the server: NFC, folded whitespace, trimmed", () => {
  assert.equal(normalizeText("  e\u0301t\u00e9 \n\t  deux  "), "\u00e9t\u00e9 deux");
});

test("describe gives quote, ≤64 chars of context and offsets", () => {
  const sel = select(ABSTRACT, "asymmetric actor-critic framework");
  assert.equal(sel.exact, "asymmetric actor-critic framework");
  assert.equal(sel.prefix.length, 64);
  assert.ok(ABSTRACT.slice(0, sel.start).endsWith(sel.prefix));
  assert.ok(ABSTRACT.slice(sel.end).startsWith(sel.suffix));
  assert.ok(sel.suffix.length <= 64);
});

test("exact: unchanged text anchors by position", () => {
  const sel = select(ABSTRACT, "multi-turn interactions");
  assert.deepEqual(anchor(ABSTRACT, sel), { start: sel.start, end: sel.end, method: "position" });
});

test("moved: text inserted before the quote, found by quote and context", () => {
  const sel = select(ABSTRACT, "multi-turn interactions");
  const moved = "Update: a new first sentence was added. " + ABSTRACT;
  const a = anchor(moved, sel);
  assert.equal(a.method, "quote");
  assert.equal(moved.slice(a.start, a.end), "multi-turn interactions");
  assert.equal(a.start, sel.start + 40);
});

test("edited: a slightly changed quote is found by fuzzy match", () => {
  const sel = select(ABSTRACT, "ensuring reliable behavior in multi-turn interactions");
  const edited = ABSTRACT.replace("ensuring reliable behavior in multi-turn", "ensuring reliable behaviour in multi turn");
  const a = anchor(edited, sel);
  assert.equal(a.method, "fuzzy");
  assert.equal(edited.slice(a.start, a.end), "ensuring reliable behaviour in multi turn interactions");
});

test("duplicated phrase: the context picks the right occurrence", () => {
  const text = "First the agent plans its moves. Later the agent acts on the plan.";
  const s1 = text.indexOf("the agent");
  const sel = select(text, "the agent", 1);
  // Moved so that the old position now holds the *other* occurrence: position alone would be wrong.
  const moved = "x".repeat(sel.start - s1) + text;
  assert.equal(moved.slice(sel.start, sel.end), "the agent");
  const a = anchor(moved, sel);
  assert.equal(a.method, "quote");
  assert.equal(a.start, sel.start + (sel.start - s1));
  assert.equal(moved.slice(a.end, a.end + 5), " acts");
});

test("astral characters: offsets are UTF-16 and context never splits a pair", () => {
  const text = "We test 𝒜𝒷𝒸 symbols 😀 and more 😀 text with 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 inside the abstract.";
  const sel = select(text, "😀 text with 𝔘𝔫𝔦");
  assert.equal(text.slice(sel.start, sel.end), sel.exact);
  assert.equal(anchor(text, sel).method, "position");
  const moved = "𝕏 " + text;
  const a = anchor(moved, sel);
  assert.equal(moved.slice(a.start, a.end), sel.exact);
  assert.equal(a.start, sel.start + 3);
  // Context cut at 64 units must not leave a lone surrogate.
  const long = "😀".repeat(40) + "quote" + "😀".repeat(40);
  const s = select(long, "quote");
  assert.ok(s.prefix.length <= 64 && s.suffix.length <= 64);
  assert.doesNotMatch(s.prefix, /^[\uDC00-\uDFFF]/);
  assert.doesNotMatch(s.suffix, /[\uD800-\uDBFF]$/);
});

test("deleted quote: an orphan, never a guess", () => {
  const sel = select(ABSTRACT, "one-shot settings where retries are impossible");
  const deleted = ABSTRACT.replace("In many real-world applications, agents must succeed in one-shot settings where retries are impossible. ", "");
  assert.equal(anchor(deleted, sel), null);
  assert.equal(anchor("", sel), null);
});

test("a short quote that is gone is an orphan too", () => {
  assert.equal(anchor("nothing here", { exact: "LLM", prefix: "", suffix: "", start: 0, end: 3 }), null);
});

test("DOM: the text model skips KaTeX duplicates and our UI, maps back to nodes, paints and unpaints", () => {
  const doc = htmlDocument(
    '<p id="a">Experiments on <span><span><math><mi>τ</mi><annotation>\\tau</annotation></math></span>' +
      '<span aria-hidden="true">τ</span></span>-bench   and\n UserBench <span data-papershelf-ui>Save</span>show gains.</p>',
  );
  const p = doc.getElementById("a");
  const model = textModel(p);
  assert.equal(model.text, "Experiments on τ-bench and UserBench show gains.");
  const start = model.text.indexOf("τ-bench and User");
  const marks = paint(p, start, start + "τ-bench and User".length, { id: "h1", color: "green" });
  assert.ok(marks.length >= 2, "spans several text nodes");
  assert.equal(marks.map((m) => m.textContent).join("").replace(/\s+/g, " "), "τ-bench and User");
  assert.equal(fieldText(p), model.text, "painting does not change the field text");
  assert.equal(p.querySelectorAll('[data-papershelf-highlight="h1"]').length, marks.length);
  unpaint(p, "h1");
  assert.equal(p.querySelectorAll("mark").length, 0);
  assert.equal(fieldText(p), model.text);
});

test("DOM: user text in a highlight title stays text", () => {
  const doc = htmlDocument('<p id="a">Some abstract text here.</p>');
  const p = doc.getElementById("a");
  const [m] = paint(p, 5, 13, { id: "x", title: '<img src=x onerror=alert(1)>' });
  assert.equal(m.querySelector("img"), null);
  assert.equal(m.title, '<img src=x onerror=alert(1)>');
});
