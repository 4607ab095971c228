// The reader's pdf.js (extension/vendor/pdfjs/) is the pinned pdfjs-dist package, byte for byte,
// a release without the known script-execution flaws, and without an eval path.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import { PACKAGE, VENDOR, packageVersion, shippedFiles, vendoredFiles } from "./pdfjs_vendor.js";

const LOCK = JSON.parse(fs.readFileSync(path.join(PACKAGE, "..", "..", "package-lock.json"), "utf8"));

test("the installed pdfjs-dist is the version package-lock.json pins", () => {
  assert.equal(packageVersion(), LOCK.packages["node_modules/pdfjs-dist"].version);
});

test("the vendored files are the pinned package's, byte for byte, and nothing else", () => {
  assert.deepEqual(vendoredFiles(), shippedFiles());
  for (const rel of shippedFiles()) {
    const ours = fs.readFileSync(path.join(VENDOR, rel));
    assert.ok(ours.equals(fs.readFileSync(path.join(PACKAGE, rel))), `${rel} differs from pdfjs-dist`);
  }
  assert.equal(fs.readFileSync(path.join(VENDOR, "VERSION"), "utf8"), `pdfjs-dist ${packageVersion()}\n`);
});

function versionAtLeast(version, floor) {
  const a = version.split(".").map(Number);
  const b = floor.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

test("the release has the fixes of the known script-execution advisories", () => {
  // CVE-2024-4367 (font programs, fixed in 4.2.67); CVE-2026-16633 (fixed in 6.2.108).
  assert.ok(versionAtLeast(packageVersion(), "6.2.108"), packageVersion());
});

test("the shipped build has no eval path and no scripting engine", () => {
  for (const rel of ["build/pdf.min.mjs", "build/pdf.worker.min.mjs"]) {
    const code = fs.readFileSync(path.join(VENDOR, rel), "utf8");
    assert.doesNotMatch(code, /\bnew Function\s*\(|\beval\s*\(/, rel);
  }
  assert.ok(!vendoredFiles().some((f) => /quickjs|sandbox/i.test(f)));
});
