/**
 * The pdf.js files the extension's reader ships, copied byte for byte from the pdfjs-dist package
 * package-lock.json pins (node_modules/pdfjs-dist) into extension/vendor/pdfjs/. They are
 * committed, so that a fresh clone loads as an unpacked extension with no npm step;
 * pdfjs_vendor.test.js holds them equal to the pinned package. After moving the pin:
 *
 *     npm install --save-exact --save-dev pdfjs-dist@<version> && npm run vendor:pdfjs
 *
 * Not shipped: the viewer (web/), the scripting sandbox and its QuickJS engine (a PDF's
 * JavaScript never runs here), source maps, the legacy build.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const PACKAGE = path.join(ROOT, "node_modules", "pdfjs-dist");
export const VENDOR = path.join(ROOT, "extension", "vendor", "pdfjs");

/** Package-relative paths (a trailing slash: every file of that folder). */
export const SHIPPED = [
  "LICENSE",
  "build/pdf.min.mjs",
  "build/pdf.worker.min.mjs",
  "cmaps/",
  "standard_fonts/",
  "iccs/",
  "wasm/openjpeg.wasm",
  "wasm/openjpeg_nowasm_fallback.js",
  "wasm/jbig2.wasm",
  "wasm/jbig2_nowasm_fallback.js",
  "wasm/qcms_bg.wasm",
  "wasm/LICENSE_OPENJPEG",
  "wasm/LICENSE_PDFJS_OPENJPEG",
  "wasm/LICENSE_JBIG2",
  "wasm/LICENSE_PDFJS_JBIG2",
  "wasm/LICENSE_QCMS",
  "wasm/LICENSE_PDFJS_QCMS",
];

/** Every shipped file, package-relative, sorted. */
export function shippedFiles(base = PACKAGE) {
  const out = [];
  for (const entry of SHIPPED) {
    if (!entry.endsWith("/")) {
      out.push(entry);
      continue;
    }
    for (const name of fs.readdirSync(path.join(base, entry))) {
      if (fs.statSync(path.join(base, entry, name)).isFile()) out.push(entry + name);
    }
  }
  return out.sort();
}

/** The files now under extension/vendor/pdfjs/, package-relative, sorted (VERSION and README.md aside). */
export function vendoredFiles() {
  const out = [];
  const walk = (dir, rel) => {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) walk(full, `${rel}${name}/`);
      else if (!(rel === "" && (name === "VERSION" || name === "README.md"))) out.push(rel + name);
    }
  };
  walk(VENDOR, "");
  return out.sort();
}

export function packageVersion() {
  return JSON.parse(fs.readFileSync(path.join(PACKAGE, "package.json"), "utf8")).version;
}

/** Copy the shipped files from the installed package, removing what is no longer shipped. */
export function copyVendored() {
  const readme = fs.readFileSync(path.join(VENDOR, "README.md"));
  fs.rmSync(VENDOR, { recursive: true, force: true });
  fs.mkdirSync(VENDOR, { recursive: true });
  fs.writeFileSync(path.join(VENDOR, "README.md"), readme);
  for (const rel of shippedFiles()) {
    fs.mkdirSync(path.dirname(path.join(VENDOR, rel)), { recursive: true });
    fs.copyFileSync(path.join(PACKAGE, rel), path.join(VENDOR, rel));
  }
  fs.writeFileSync(path.join(VENDOR, "VERSION"), `pdfjs-dist ${packageVersion()}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes("--copy")) {
  copyVendored();
  console.log(`extension/vendor/pdfjs: pdfjs-dist ${packageVersion()}, ${shippedFiles().length} files`);
}
