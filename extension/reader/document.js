/**
 * Opening a PDF in the reader: its bytes fetched by this extension page with the user's cookies
 * (credentials: include; a site the extension has no access to yet is asked for with
 * permissions.request, on the user's click), checked to be a PDF, and handed to pdf.js, which
 * runs in its worker from the extension (no eval: isEvalSupported is false, and the extension's
 * CSP allows none), without scripting, XFA or forms. early.js may have started the worker and the
 * fetch already. Every failure is a ReaderError whose message
 * says what happened in words a reader understands.
 */

import { GlobalWorkerOptions, PDFWorker, getDocument } from "../vendor/pdfjs/build/pdf.min.mjs";

const VENDOR = "vendor/pdfjs/";
GlobalWorkerOptions.workerSrc = chrome.runtime.getURL(`${VENDOR}build/pdf.worker.min.mjs`);

/** pdf.js's worker, started while the PDF is fetched (its 1.3 MB script loads meanwhile): the
 * one early.js started, else one of its own. */
let worker = null;
export function startWorker() {
  if (worker) return worker;
  const early = globalThis.papershelfEarly;
  const port = early && early.worker;
  if (port) early.worker = null; // a port serves one PDFWorker
  worker = port ? new PDFWorker({ name: "papershelf-reader", port }) : new PDFWorker({ name: "papershelf-reader" });
  return worker;
}

/** The response early.js asked for `url`, if it did (once). */
function earlyResponse(url) {
  const early = globalThis.papershelfEarly;
  if (!early || early.url !== url || !early.response) return null;
  const response = early.response;
  early.response = null;
  return response;
}

export class ReaderError extends Error {
  constructor(message, { kind = "failed", status = 0 } = {}) {
    super(message);
    this.kind = kind; // "permission" | "http" | "not-pdf" | "password" | "damaged" | "failed"
    this.status = status;
  }
}

/** The host-permission pattern that lets the reader fetch `url` with its cookies. */
export function originPattern(url) {
  return `${new URL(url).origin}/*`;
}

/** Whether the extension may read `url`'s site (granted at install, or asked before). */
export async function mayRead(url) {
  try {
    return await chrome.permissions.contains({ origins: [originPattern(url)] });
  } catch {
    return false;
  }
}

/** Ask for `url`'s site (on a user's click only: the browser shows its own prompt). */
export async function askToRead(url) {
  try {
    return await chrome.permissions.request({ origins: [originPattern(url)] });
  } catch {
    return false;
  }
}

/** The PDF's bytes. */
async function fetchPdf(url) {
  let res;
  try {
    res = (await earlyResponse(url)) || (await fetch(url, { credentials: "include", redirect: "follow", cache: "default" }));
  } catch (err) {
    throw new ReaderError(`The PDF could not be fetched from ${new URL(url).host}: ${err.message}.`, { kind: "failed" });
  }
  if (!res.ok) {
    const what = res.status === 404 ? "there is no file at this address (404)" :
      res.status === 401 || res.status === 403 ? `the site refused access (${res.status}); sign in there and try again` :
        `the site answered ${res.status}`;
    throw new ReaderError(`The PDF could not be loaded: ${what}.`, { kind: "http", status: res.status });
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!looksLikePdf(bytes)) {
    const type = (res.headers.get("Content-Type") || "").split(";")[0].trim() || "no type";
    throw new ReaderError(`This address is not a PDF (the site sent ${type}).`, { kind: "not-pdf" });
  }
  return bytes;
}

/** A PDF starts with %PDF- within its first 1024 bytes (as readers allow). */
export function looksLikePdf(bytes) {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return head.includes("%PDF-");
}

/** Open the PDF at `url`: the pdf.js document, or a ReaderError. */
export async function openPdf(url) {
  startWorker();
  const data = await fetchPdf(url);
  performance.measure("papershelf:reader-fetched", { start: 0 });
  const task = getDocument({
    data,
    worker,
    isEvalSupported: false,
    enableXfa: false,
    stopAtErrors: false,
    cMapUrl: chrome.runtime.getURL(`${VENDOR}cmaps/`),
    cMapPacked: true,
    standardFontDataUrl: chrome.runtime.getURL(`${VENDOR}standard_fonts/`),
    wasmUrl: chrome.runtime.getURL(`${VENDOR}wasm/`),
    iccUrl: chrome.runtime.getURL(`${VENDOR}iccs/`),
    // No docBaseUrl: a relative file name (a Launch action's program) never becomes a link.
  });
  // A password-protected PDF asks for its password here: the reader does not open those.
  task.onPassword = () => {
    task.destroy();
  };
  worker = null; // destroying the document ends its worker: another document starts a new one
  try {
    return await task.promise;
  } catch (err) {
    if (err && err.name === "PasswordException") {
      throw new ReaderError("This PDF is protected by a password: papershelf's reader cannot open it. Open the original PDF instead.", { kind: "password" });
    }
    if (err && err.name === "InvalidPDFException") {
      throw new ReaderError("This file is damaged or is not a PDF: it could not be read.", { kind: "damaged" });
    }
    if (err && /Worker was destroyed|Loading aborted/.test(err.message || "")) {
      throw new ReaderError("This PDF is protected by a password: papershelf's reader cannot open it. Open the original PDF instead.", { kind: "password" });
    }
    throw new ReaderError(`This PDF could not be read: ${(err && err.message) || err}.`, { kind: "damaged" });
  }
}
