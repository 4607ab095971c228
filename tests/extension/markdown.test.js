/** lib/markdown.js builds, for every note in tests/shared/markdown.json, the DOM the library's
 * renderer (render.py: markdown-it-py, then nh3) gives; and the vendored parser is the pinned
 * package's file, byte for byte. */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { parseHTML } from "linkedom";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { window, document } = parseHTML("<!doctype html><html><body></body></html>");
globalThis.DOMParser = window.DOMParser;
const { renderMarkdown, allowedHref, NOTE_TAGS } = await import("../../extension/lib/markdown.js");
const { cases } = JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "shared", "markdown.json"), "utf8"));

/** A DOM as text: attributes sorted and adjacent texts joined (how a parser splits them and
 * orders attributes is its own business, not the rule's). */
function shape(node) {
  const attrs = node.attributes ? [...node.attributes].map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort() : [];
  const parts = [];
  let text = null;
  for (const child of node.childNodes) {
    if (child.nodeType === 3) {
      text = (text || "") + child.data;
      continue;
    }
    if (text !== null) parts.push(JSON.stringify(text));
    text = null;
    if (child.nodeType === 1) parts.push(shape(child));
  }
  if (text !== null) parts.push(JSON.stringify(text));
  return `<${node.localName || "#"} ${attrs.join(" ")}>${parts.join("")}</>`;
}

function expected(html) {
  const div = document.createElement("div");
  div.innerHTML = html;
  return shape(div);
}

function rendered(source) {
  const div = document.createElement("div");
  div.append(renderMarkdown(source, document));
  return div;
}

for (const c of cases) {
  test(`markdown: ${c.name}`, () => {
    assert.equal(shape(rendered(c.source)), expected(c.html));
  });
}

test("nothing but the allowlist survives, and no link leaves http(s)", () => {
  for (const c of cases) {
    const div = rendered(c.source);
    for (const el of div.querySelectorAll("*")) {
      assert.ok(NOTE_TAGS.includes(el.localName), `${c.name}: <${el.localName}>`);
      for (const attr of el.attributes) assert.ok(!attr.name.startsWith("on"), `${c.name}: ${attr.name}`);
      if (el.hasAttribute("href")) assert.match(el.getAttribute("href"), /^https?:/i, c.name);
    }
  }
});

test("allowedHref: absolute http(s) only", () => {
  assert.ok(allowedHref("https://example.com/x"));
  assert.ok(allowedHref("HTTP://EXAMPLE.com"));
  for (const bad of ["javascript:alert(1)", " javascript:alert(1)", "data:text/html,x", "/rel", "//evil.example", "mailto:a@b", "", "#x"]) {
    assert.ok(!allowedHref(bad), bad);
  }
});

test("the vendored markdown-it is the pinned package's file", () => {
  const pinned = path.join(ROOT, "node_modules", "markdown-it", "dist", "markdown-it.min.js");
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));
  assert.equal(lock.packages["node_modules/markdown-it"].version, "14.1.0", "the version markdown-it-py ports");
  assert.ok(fs.readFileSync(path.join(ROOT, "extension", "lib", "markdown-it.min.js")).equals(fs.readFileSync(pinned)));
});
