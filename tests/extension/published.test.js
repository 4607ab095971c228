import { test } from "node:test";
import assert from "node:assert/strict";
import { publishedLine } from "../../extension/lib/published.js";

test("the panel's line names the venue, the source and what the exports cite", () => {
  const v = { venue: "NeurIPS 2017", source: "semantic_scholar" };
  assert.equal(publishedLine({ published_version: v, cite: "published" }),
    "Published in NeurIPS 2017 (Semantic Scholar) · exports cite it");
  assert.equal(publishedLine({ published_version: { journal: "Physical Review Letters", source: "arxiv" }, cite: "preprint" }),
    "Published in Physical Review Letters (arXiv's DOI) · exports cite the preprint");
});

test("no version, no line", () => {
  assert.equal(publishedLine({ published_version: null, cite: "preprint" }), "");
  assert.equal(publishedLine(null), "");
});
