import { test } from "node:test";
import assert from "node:assert/strict";
import { looksLikePdf, savePayloadFromIdentity } from "../../extension/background/tabs.js";

// "Save this page" on a tab no script reads (a PDF of a known site): the paper its address names.
test("a PDF tab of a known site is saved by the identity its address gives", () => {
  assert.deepEqual(savePayloadFromIdentity("https://dl.acm.org/doi/pdf/10.1145/3442188.3445922", " 3442188.3445922.pdf "), {
    identity: "doi:10.1145/3442188.3445922",
    paper: {
      title: "3442188.3445922.pdf",
      url: "https://dl.acm.org/doi/pdf/10.1145/3442188.3445922",
      doi: "10.1145/3442188.3445922",
      pdf_url: "https://dl.acm.org/doi/pdf/10.1145/3442188.3445922",
    },
  });
  const openreview = savePayloadFromIdentity("https://openreview.net/pdf?id=YicbFdNTTy", "");
  assert.equal(openreview.identity, "openreview:YicbFdNTTy");
  assert.equal(openreview.paper.title, "openreview:YicbFdNTTy", "no title: the identity, until a page gives one");
  assert.equal(openreview.paper.pdf_url, "https://openreview.net/pdf?id=YicbFdNTTy");
  assert.equal(openreview.paper.doi, undefined);
  const ieee = savePayloadFromIdentity("https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=7780459", "IEEE Xplore Full-Text PDF:");
  assert.equal(ieee.identity, "ieee:7780459");
  assert.equal(ieee.paper.pdf_url, ieee.paper.url);
  const landing = savePayloadFromIdentity("https://aclanthology.org/2023.acl-long.1/", "Title");
  assert.equal(landing.identity, "acl:2023.acl-long.1");
  assert.equal(landing.paper.pdf_url, undefined, "a landing page is no PDF");
});

test("an address that names no paper saves nothing from it", () => {
  for (const url of ["https://scholar.google.com/scholar?q=x", "https://example.org/post", "chrome://newtab/", "", undefined]) {
    assert.equal(savePayloadFromIdentity(url, "x"), null, String(url));
  }
});

test("PDF addresses as the sites write them", () => {
  for (const url of ["https://x.org/a.pdf", "https://dl.acm.org/doi/pdf/10.1/x", "https://onlinelibrary.wiley.com/doi/epdf/10.1/x",
    "https://openreview.net/pdf?id=a", "https://ieeexplore.ieee.org/stamp/stamp.jsp?arnumber=1",
    "https://www.sciencedirect.com/science/article/pii/S0004370221000862/pdfft?pid=x"]) assert.ok(looksLikePdf(url), url);
  for (const url of ["https://dl.acm.org/doi/10.1/x", "https://openreview.net/forum?id=a", "not a url"]) assert.ok(!looksLikePdf(url), url);
});
