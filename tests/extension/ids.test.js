import { test } from "node:test";
import assert from "node:assert/strict";
import { normalizeArxivId, parseArxivId, paperKey } from "../../extension/lib/ids.js";

const SAME = [
  "2603.01234",
  "2603.01234v2",
  "arXiv:2603.01234v2",
  "arxiv:2603.01234",
  " https://arxiv.org/abs/2603.01234v2 ",
  "https://arxiv.org/pdf/2603.01234v1.pdf",
  "https://arxiv.org/pdf/2603.01234",
  "http://export.arxiv.org/abs/2603.01234",
  "https://www.alphaxiv.org/abs/2603.01234",
  "https://www.alphaxiv.org/overview/2603.01234v3",
  "https://alphaxiv.org/abs/2603.01234",
];

for (const input of SAME) {
  test(`normalizes ${input.trim()} to 2603.01234`, () => {
    assert.equal(normalizeArxivId(input), "2603.01234");
  });
}

test("keeps the version apart", () => {
  assert.deepEqual(parseArxivId("arXiv:2603.01234v2"), { id: "2603.01234", version: 2 });
  assert.deepEqual(parseArxivId("2603.01234"), { id: "2603.01234", version: null });
});

test("old style ids drop the subject class", () => {
  assert.equal(normalizeArxivId("hep-th/9901001"), "hep-th/9901001");
  assert.equal(normalizeArxivId("math.GT/0309136"), "math/0309136");
  assert.equal(normalizeArxivId("https://arxiv.org/abs/math.GT/0309136v2"), "math/0309136");
  assert.deepEqual(parseArxivId("math.GT/0309136v2"), { id: "math/0309136", version: 2 });
});

test("four digit sequence numbers before 2015", () => {
  assert.equal(normalizeArxivId("0704.0001"), "0704.0001");
  assert.equal(normalizeArxivId("1412.12345"), null);
  assert.equal(normalizeArxivId("1501.1234"), null);
});

test("relative links resolve against the page", () => {
  assert.equal(normalizeArxivId("/abs/2603.01234", "https://www.alphaxiv.org/topics/x"), "2603.01234");
  assert.equal(normalizeArxivId("/overview/2603.01234v2", "https://www.alphaxiv.org/"), "2603.01234");
  assert.equal(normalizeArxivId("/topics/llm-agent-training", "https://www.alphaxiv.org/"), null);
});

for (const bad of ["", "2613.01234", "2603.123", "hello", "https://example.org/abs/2603.01234", "javascript:alert(1)", "/abs/2603.01234", null, 42]) {
  test(`rejects ${JSON.stringify(bad)}`, () => {
    assert.equal(normalizeArxivId(bad), null);
  });
}

test("a paper is keyed by its arXiv id, else its URL", () => {
  assert.equal(paperKey({ arxiv_id: "2603.01234", url: "https://x" }), "2603.01234");
  assert.equal(paperKey({ url: "https://journal.example/p/1" }), "https://journal.example/p/1");
});
