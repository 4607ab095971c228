import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { SCHEMES, identitiesOf, identitiesOfUrl, normalizeDoi, normalizeIdentity } from "../../extension/lib/identities.js";

// The rule both languages implement; tests/domain/test_identities.py runs the same cases.
const vectors = JSON.parse(readFileSync(new URL("../shared/identities.json", import.meta.url), "utf8"));

test("the vectors hold enough real addresses, and the schemes in one order", () => {
  assert.ok(vectors.urls.cases.length >= 80);
  assert.deepEqual(SCHEMES, vectors.schemes);
});

for (const c of vectors.urls.cases) {
  test(`shared address vector ${JSON.stringify(c.input)}`, () => {
    assert.deepEqual(identitiesOfUrl(c.input), c.identities);
    for (const identity of c.identities) assert.equal(normalizeIdentity(identity), identity, "its own form");
  });
}

for (const c of vectors.of.cases) {
  test(`shared paper vector ${JSON.stringify(c.input)}`, () => {
    const { url, doi, arxiv_id: arxivId, pdf_url: pdfUrl, extra_urls: extraUrls } = c.input;
    assert.deepEqual(identitiesOf({ url, doi, arxivId, pdfUrl, extraUrls }), c.identities);
  });
}

for (const c of vectors.ids.cases) {
  test(`shared asked identity vector ${JSON.stringify(c.input)}`, () => {
    assert.equal(normalizeIdentity(c.input), c.identity);
  });
}

for (const c of vectors.dois.cases) {
  test(`shared DOI vector ${JSON.stringify(c.input)}`, () => {
    assert.equal(normalizeDoi(c.input), c.doi);
  });
}

test("junk gives nothing and never throws", () => {
  for (const junk of [null, undefined, 7, {}, "", "https://", "https://[::1]/x", "\ud800", "https://example.com:99999/10.1145/x", "data:text/html,1"]) {
    assert.deepEqual(identitiesOfUrl(junk), []);
    assert.equal(normalizeIdentity(junk), null);
    assert.equal(normalizeDoi(junk), null);
  }
  assert.deepEqual(identitiesOf(), []);
  assert.deepEqual(identitiesOf({ url: 7, doi: {}, arxivId: [] }), []);
});
