import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { arxivAbsUrl, normalizeArxivId, normalizeUrl, parseArxivId, paperKey } from "../../extension/lib/ids.js";

// The rule both languages implement; tests/domain/test_identifiers.py runs the same cases.
const vectors = JSON.parse(readFileSync(new URL("../shared/identifiers.json", import.meta.url), "utf8"));
const { cases } = vectors;

for (const c of cases) {
  test(`shared vector ${JSON.stringify(c.input)}`, () => {
    const expected = c.arxiv_id === null ? null : { id: c.arxiv_id, version: c.version };
    assert.deepEqual(parseArxivId(c.input), expected);
    assert.equal(normalizeArxivId(c.input), c.arxiv_id);
  });
}

test("relative links resolve against the page", () => {
  assert.equal(normalizeArxivId("/abs/2603.01234", "https://www.alphaxiv.org/topics/x"), "2603.01234");
  assert.equal(normalizeArxivId("/overview/2603.01234v2", "https://www.alphaxiv.org/"), "2603.01234");
  assert.deepEqual(parseArxivId("/pdf/2603.01234v2", "https://arxiv.org/abs/2603.01234v2"), { id: "2603.01234", version: 2 });
  assert.equal(normalizeArxivId("../../abs/math.GT/0309136", "https://arxiv.org/list/math/0309"), "math/0309136");
  assert.equal(normalizeArxivId("//arxiv.org/abs/2603.01234", "https://example.org/page"), "2603.01234");
  assert.equal(normalizeArxivId("/topics/llm-agent-training", "https://www.alphaxiv.org/"), null);
  assert.equal(normalizeArxivId("/abs/2613.01234", "https://www.alphaxiv.org/"), null);
  assert.equal(normalizeArxivId("/abs/2603.01234", "https://example.org/"), null);
  assert.equal(normalizeArxivId("https://example.org/abs/2603.01234", "https://arxiv.org/"), null);
});

for (const c of vectors.urls.cases) {
  test(`shared URL vector ${JSON.stringify(c.input)}`, () => {
    assert.equal(normalizeUrl(c.input), c.url);
    if (c.url !== null) assert.equal(normalizeUrl(c.url), c.url, "the canonical form is its own");
  });
}

for (const c of vectors.abs_urls.cases) {
  test(`shared abstract page vector ${c.arxiv_id}`, () => {
    assert.equal(arxivAbsUrl(c.arxiv_id), c.url);
  });
}

test("a paper is keyed by its normalized arXiv id, else its normalized URL", () => {
  assert.equal(paperKey({ arxiv_id: "2603.01234", url: "https://x.example/" }), "2603.01234");
  assert.equal(paperKey({ arxiv_id: "arXiv:2603.01234v2" }), "2603.01234");
  assert.equal(paperKey({ url: "https://journal.example/p/1" }), "https://journal.example/p/1");
  assert.equal(paperKey({ arxiv_id: null, url: "https://Journal.example/p/1?utm_source=x#s" }), "https://journal.example/p/1");
  assert.equal(paperKey({ arxiv_id: "not an id", url: "javascript:alert(1)" }), null);
  assert.equal(paperKey({}), null);
  assert.equal(paperKey(null), null);
});
