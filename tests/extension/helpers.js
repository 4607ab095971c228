/** Test helpers: fixture pages parsed with linkedom at the URL they are served from. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseHTML } from "linkedom";

export const PAGES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "pages");

export function loadPage(name, url) {
  const html = fs.readFileSync(path.join(PAGES, name), "utf8");
  return htmlDocument(html, url);
}

export function htmlDocument(html, url = "https://www.alphaxiv.org/") {
  const { document } = parseHTML(html);
  Object.defineProperty(document, "location", { value: new URL(url), configurable: true });
  return document;
}

export function expectedPapers() {
  return JSON.parse(fs.readFileSync(path.join(PAGES, "papers.json"), "utf8"));
}
