import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LIMITS } from "../../extension/lib/limits.js";
import { CONTEXT_CHARS } from "../../extension/lib/anchoring.js";

// The server's limits; tests/domain/test_validation_limits.py holds domain/validation.py to the same file.
const vectors = JSON.parse(readFileSync(new URL("../shared/limits.json", import.meta.url), "utf8"));

test("the extension's limits are the server's", () => {
  assert.deepEqual({ ...LIMITS }, vectors.limits);
});

test("the context a highlight keeps is the context the server takes", () => {
  assert.equal(CONTEXT_CHARS, LIMITS.context);
});

test("no input of the extension writes its own limit", () => {
  // A maxlength is LIMITS.<name>, never a number: the panel's page and scripts.
  for (const file of ["panel/panel.js", "panel/panel.html", "content/toolbar.js", "background/sender.js", "popup/popup.html", "options/options.html"]) {
    const text = readFileSync(new URL(`../../extension/${file}`, import.meta.url), "utf8");
    assert.doesNotMatch(text, /maxlength\s*[:=]\s*["']?\d/i, file);
  }
});
