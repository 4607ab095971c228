import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PALETTE, DEFAULT_COLOR, backgroundOf } from "../../extension/lib/palette.js";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const shared = JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "shared", "palette.json"), "utf8"));
const pageCss = fs.readFileSync(path.join(ROOT, "extension", "content", "page.css"), "utf8");

test("the colour names come in the shared menu order", () => {
  assert.deepEqual(PALETTE.map((c) => c.name), shared.colors.map((c) => c.name));
});

test("the default colour is the shared one", () => {
  assert.equal(DEFAULT_COLOR, shared.default);
});

for (const { name, background } of shared.colors) {
  test(`${name} has the shared background ${background}`, () => {
    assert.equal(PALETTE.find((c) => c.name === name).background, background);
    assert.equal(backgroundOf(name), background);
  });

  test(`page.css paints a ${name} mark with ${background}`, () => {
    const rule = name === shared.default
      ? /mark\[data-papershelf-highlight\]\[data-papershelf-highlight\]\s*\{[^}]*background:\s*(#[0-9a-f]{6})/i
      : new RegExp(`mark\\[data-papershelf-highlight\\]\\[data-papershelf-color="${name}"\\]\\s*\\{[^}]*background:\\s*(#[0-9a-f]{6})`, "i");
    const m = rule.exec(pageCss);
    assert.ok(m, `no rule for ${name} marks in content/page.css`);
    assert.equal(m[1].toLowerCase(), background);
  });
}

test("an unknown colour is shown in the default one", () => {
  assert.equal(backgroundOf("chartreuse"), backgroundOf(shared.default));
});

test("the palette cannot be changed at run time", () => {
  assert.ok(Object.isFrozen(PALETTE) && PALETTE.every(Object.isFrozen));
});
