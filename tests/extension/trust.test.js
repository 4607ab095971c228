import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { Role, contentPagesOf, mayAsk, pageSafePaper, pageSafeShared, senderRole } from "../../extension/background/trust.js";
import { compileMatchPattern, compileMatchPatterns } from "../../extension/lib/matchpatterns.js";

const manifest = JSON.parse(fs.readFileSync(new URL("../../extension/manifest.json", import.meta.url), "utf8"));
const ID = "abcdefghijklmnopabcdefghijklmnop";
const BASE = `chrome-extension://${ID}/`;
const identity = {
  extensionId: ID,
  extensionBase: BASE,
  onContentPage: contentPagesOf(manifest),
};

const contentScript = (url, extra = {}) => ({ id: ID, url, origin: new URL(url).origin, frameId: 0, tab: { id: 7 }, ...extra });

test("the extension's own pages are the extension; content scripts only on the manifest's pages", () => {
  assert.equal(senderRole({ id: ID, url: `${BASE}popup/popup.html`, origin: BASE.slice(0, -1) }, identity), Role.EXTENSION);
  assert.equal(senderRole({ id: ID, url: `${BASE}panel/panel.html`, tab: { id: 7 }, frameId: 3 }, identity), Role.EXTENSION);
  assert.equal(senderRole(contentScript("https://www.alphaxiv.org/topics/x?view=list"), identity), Role.CONTENT);
  assert.equal(senderRole(contentScript("https://arxiv.org/abs/2603.00001"), identity), Role.CONTENT);
  assert.equal(senderRole(contentScript("https://arxiv.org/list/cs.CL/new"), identity), Role.CONTENT);
});

for (const [what, sender] of [
  ["another extension", { id: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", url: "chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/x.html" }],
  ["no sender", null],
  ["the server's own page (left out of every content script)", contentScript("http://127.0.0.1:5180/library")],
  ["localhost", contentScript("http://localhost:5180/")],
  ["a file", { ...contentScript("https://arxiv.org/abs/1"), url: "file:///home/x/paper.html", origin: "null" }],
  ["an ftp page", { ...contentScript("https://arxiv.org/abs/1"), url: "ftp://arxiv.org/abs/1", origin: "null" }],
  ["a sub-frame", contentScript("https://arxiv.org/abs/1", { frameId: 4 })],
  ["no tab", contentScript("https://arxiv.org/abs/1", { tab: undefined })],
  ["a tab now elsewhere", contentScript("https://arxiv.org/abs/1", { tab: { id: 7, url: "http://127.0.0.1:5180/" } })],
  ["an origin that is not the URL's", contentScript("https://arxiv.org/abs/1", { origin: "https://evil.example" })],
  ["an extension URL from another origin", { id: ID, url: `${BASE}panel/panel.html`, origin: "https://arxiv.org" }],
]) {
  test(`refused: ${what}`, () => {
    assert.equal(senderRole(sender, identity), null);
    assert.equal(mayAsk(senderRole(sender, identity), "lookup"), false);
  });
}

test("a content script may look up, save, highlight and open its panel; never read or write notes", () => {
  for (const t of ["lookup", "save", "highlight", "open-panel", "close-panel"]) assert.ok(mayAsk(Role.CONTENT, t), t);
  for (const t of ["note", "update-note", "delete-note", "update-highlight", "panel-state", "bibtex", "export", "status", "test-connection"]) {
    assert.equal(mayAsk(Role.CONTENT, t), false, t);
    assert.equal(mayAsk(Role.EXTENSION, t), true, t);
  }
});

test("what a page learns of a saved paper: counts and where highlights go, no text of the user's", () => {
  const paper = {
    id: "p1", citation_key: "lovelace2026notes", title: "T", abstract: "A", tags: ["secret-tag"],
    enrichment: { state: "done", reason: "why", at: "x" }, authors: ["Ada"], authors_more: 0, primary_category: "cs.LG",
    notes: [{ id: "n1", body: "my private note" }, { id: "n2", body: "another" }],
    highlights: [{ id: "h1", field: "abstract", exact: "quote", prefix: "p", suffix: "s", start: 1, end: 6, color: "green", comment: "my private comment", user: "ada" }],
  };
  const safe = pageSafePaper(paper);
  assert.equal(safe.note_count, 2);
  assert.deepEqual(safe.highlights, [{ id: "h1", field: "abstract", exact: "quote", prefix: "p", suffix: "s", start: 1, end: 6, color: "green" }]);
  const text = JSON.stringify(safe);
  for (const secret of ["my private note", "another", "my private comment", "secret-tag"]) assert.ok(!text.includes(secret), secret);
  assert.ok(!("notes" in safe) && !("tags" in safe));
  assert.equal(pageSafePaper(null), null);
});

test("match patterns as the browser reads them", () => {
  const p = compileMatchPattern("https://arxiv.org/abs/*");
  assert.ok(p("https://arxiv.org/abs/2603.00001v2"));
  assert.ok(p("https://arxiv.org/abs/"));
  assert.ok(!p("https://arxiv.org/pdf/2603.00001"));
  assert.ok(!p("https://arxiv.org/abs"));
  const any = compileMatchPattern("*://*.example.org/a*b");
  assert.ok(any("http://example.org/ab") && any("https://x.y.example.org/a/zb") && any("https://example.org/a?q=b"));
  assert.ok(!any("ftp://example.org/ab") && !any("https://badexample.org/ab"));
  assert.ok(compileMatchPattern("<all_urls>")("file:///etc/x"));
  assert.ok(!compileMatchPattern("not a pattern")("https://arxiv.org/"));
  assert.ok(!compileMatchPatterns(["https://arxiv.org/*"])("not a url"));
  assert.ok(!compileMatchPatterns(["https://arxiv.org/*"])(undefined));
});

test("the manifest lets no web page or other extension message the worker, and asks no more hosts", () => {
  assert.equal(manifest.externally_connectable, undefined);
  // Any server works through CORS: no prompt for it. arXiv: the reader fetches its PDFs and opens
  // them in place of the browser's viewer. Other sites' PDFs: asked for by the reader, site by site.
  assert.deepEqual(manifest.host_permissions.sort(), ["http://127.0.0.1/*", "http://localhost/*", "https://arxiv.org/*", "https://export.arxiv.org/*"]);
  assert.deepEqual(manifest.optional_host_permissions, ["https://*/*", "http://*/*"]);
  for (const dir of ["options", "popup", "panel", "background", "content"]) {
    for (const f of fs.readdirSync(new URL(`../../extension/${dir}/`, import.meta.url)).filter((n) => n.endsWith(".js"))) {
      const src = fs.readFileSync(new URL(`../../extension/${dir}/${f}`, import.meta.url), "utf8");
      assert.ok(!src.includes("permissions.request"), `${dir}/${f} asks for a permission`);
    }
  }
  const war = manifest.web_accessible_resources.flatMap((w) => w.resources);
  assert.ok(war.includes("panel/panel.html"));
  assert.ok(!war.some((r) => r.startsWith("background/") || r.startsWith("options/") || r.startsWith("popup/")));
  // The reader is web-accessible to arXiv alone (its PDFs are redirected there), and refuses frames.
  const readerWar = manifest.web_accessible_resources.filter((w) => w.resources.includes("reader/reader.html"));
  assert.deepEqual(readerWar.flatMap((w) => w.matches).sort(), ["https://arxiv.org/*", "https://export.arxiv.org/*"]);
  assert.ok(fs.readFileSync(new URL("../../extension/reader/main.js", import.meta.url), "utf8").includes("window.top !== window"));
});

test("what group members saved reaches the page as who, where and how many, never a note or comment", () => {
  const shared = {
    "2603.29001": [{
      user: "bob", paper_id: 9, groups: [{ id: 1, name: "Lab" }], notes: 2,
      highlights: [{ id: 5, field: "abstract", exact: "reasoning", prefix: "strong ", suffix: " and",
        start: 50, end: 59, color: "green", comment: "bob's private thought", user: "bob",
        created_at: "2026-01-01T00:00:00Z" }],
    }],
  };
  const safe = pageSafeShared(shared);
  assert.deepEqual(safe, {
    "2603.29001": [{
      user: "bob", groups: ["Lab"], note_count: 2,
      highlights: [{ id: 5, field: "abstract", exact: "reasoning", prefix: "strong ", suffix: " and",
        start: 50, end: 59, color: "green" }],
    }],
  });
  assert.ok(!JSON.stringify(safe).includes("private thought"));
  assert.deepEqual(pageSafeShared(undefined), {});
});

test("the PDF reader, in a tab's top frame, may ask what a content script may, and open its PDF; nothing private", () => {
  const reader = { id: ID, url: `${BASE}reader/reader.html?file=https%3A%2F%2Farxiv.org%2Fpdf%2F2603.30493`, origin: BASE.slice(0, -1), tab: { id: 7 }, frameId: 0 };
  assert.equal(senderRole(reader, identity), Role.READER);
  for (const t of ["lookup", "save", "highlight", "panel-ticket", "open-panel", "close-panel", "open-reader", "original-pdf"]) {
    assert.ok(mayAsk(Role.READER, t), t);
  }
  for (const t of ["note", "update-note", "delete-note", "update-highlight", "panel-state", "claim-panel", "bibtex", "export", "status", "flush", "save-page", "test-connection", "pdf-redirects"]) {
    assert.equal(mayAsk(Role.READER, t), false, t);
  }
  // Framed by a page (the reader is web-accessible for arXiv's redirect), or outside a tab: no one.
  assert.equal(senderRole({ ...reader, frameId: 2 }, identity), null);
  assert.equal(senderRole({ ...reader, tab: undefined }, identity), null);
  // The panel frame inside the reader is still the extension's panel.
  assert.equal(senderRole({ id: ID, url: `${BASE}panel/panel.html`, tab: { id: 7 }, frameId: 5 }, identity), Role.EXTENSION);
  // A content script may open the reader, not the original PDF past the redirect.
  assert.ok(mayAsk(Role.CONTENT, "open-reader"));
  assert.equal(mayAsk(Role.CONTENT, "original-pdf"), false);
});

test("a PDF highlight reaches the page (the reader) with its page, still without its comment", () => {
  const h = { id: 9, field: "pdf", page: 3, exact: "x", prefix: "", suffix: "", start: 0, end: 1, color: "blue", comment: "private" };
  assert.deepEqual(pageSafePaper({ id: 1, citation_key: "k", notes: [], highlights: [h] }).highlights,
    [{ id: 9, field: "pdf", page: 3, exact: "x", prefix: "", suffix: "", start: 0, end: 1, color: "blue" }]);
});
