/**
 * The reader's first moments: before the reader's modules (pdf.js among them, half a megabyte)
 * have loaded, start what takes longest, side by side: pdf.js's worker (its own 1.3 MB script,
 * handed to pdf.js as its port) and the PDF's bytes (fetched with the user's cookies, when the
 * extension may read that site). document.js takes both over; it does all of this itself when
 * this module found nothing to start. No imports, so that it runs first.
 */

const early = { worker: null, response: null, url: null };

function fileOf(search) {
  const m = /^\?file=([\s\S]*)$/.exec(search);
  if (!m) return null;
  try {
    const value = /^https?:\/\//i.test(m[1]) ? m[1] : decodeURIComponent(m[1]);
    const u = new URL(value);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

if (window.top === window) {
  try {
    early.worker = new Worker(chrome.runtime.getURL("vendor/pdfjs/build/pdf.worker.min.mjs"), { type: "module" });
  } catch {
    early.worker = null;
  }
  const url = fileOf(location.search);
  if (url) {
    early.url = url;
    early.response = chrome.permissions.contains({ origins: [`${new URL(url).origin}/*`] }).then(
      (granted) => (granted ? fetch(url, { credentials: "include", redirect: "follow" }) : null),
      () => null,
    );
    early.response.catch(() => {}); // document.js reports what went wrong
  }
}

globalThis.papershelfEarly = early;
