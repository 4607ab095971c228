import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { normalizeArxivId, parseArxivId, paperKey } from "../../extension/lib/ids.js";

// The rule both languages implement; tests/domain/test_identifiers.py runs the same cases.
const { cases } = JSON.parse(readFileSync(new URL("../shared/identifiers.json", import.meta.url), "utf8"));

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

test("a paper is keyed by its arXiv id, else its URL", () => {
  assert.equal(paperKey({ arxiv_id: "2603.01234", url: "https://x" }), "2603.01234");
  assert.equal(paperKey({ url: "https://journal.example/p/1" }), "https://journal.example/p/1");
});
