import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { anchor, CONTEXT_CHARS, describeRange, normalizeText, textModel, paint, unpaint, fieldText } from "../../extension/lib/anchoring.js";
import { htmlDocument } from "./helpers.js";

// The shared vectors: papershelf.domain.anchoring answers them the same way (tests/domain).
const VECTORS = JSON.parse(fs.readFileSync(new URL("../shared/anchoring.json", import.meta.url), "utf8"));

for (const c of VECTORS.cases) {
  test(`shared vector: ${c.name}`, () => {
    const found = anchor(normalizeText(c.text), c.selector);
    assert.deepEqual(found && { start: found.start, end: found.end, method: found.method }, c.expected);
  });
}

test("context length is the shared one", () => {
  assert.equal(CONTEXT_CHARS, VECTORS.context_chars);
});

// The library page imports this very module to describe its highlights.
for (const c of VECTORS.describe_cases) {
  test(`shared describe vector: ${c.name}`, () => {
    assert.deepEqual(describeRange(c.text, c.start, c.end), c.expected);
  });
}

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

test("describe: context cut at 64 units never leaves half of a surrogate pair", () => {
  const long = "😀".repeat(40) + "quote" + "😀".repeat(40);
  const s = select(long, "quote");
  assert.ok(s.prefix.length <= 64 && s.suffix.length <= 64);
  assert.doesNotMatch(s.prefix, /^[\uDC00-\uDFFF]/);
  assert.doesNotMatch(s.suffix, /[\uD800-\uDBFF]$/);
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

test("DOM: a painted mark carries its id and colour only, never a comment", () => {
  const doc = htmlDocument('<p id="a">Some abstract text here.</p>');
  const p = doc.getElementById("a");
  const [m] = paint(p, 5, 13, { id: "x", color: "pink", title: "private comment", comment: "private comment" });
  assert.equal(m.querySelector("img"), null);
  assert.equal(m.getAttribute("title"), null);
  assert.deepEqual([...m.getAttributeNames()].sort(), ["data-papershelf-color", "data-papershelf-highlight"]);
  assert.ok(!p.outerHTML.includes("private comment"));
});
