/**
 * The sites where a person switched papershelf's page bar off (options page; chrome.storage.local
 * `barOffHosts`, a list of host names): the content script does nothing there. A host covers its
 * subdomains ("example.org" covers "www.example.org" and "journals.example.org").
 * Pure: no DOM, no chrome.*.
 */

/** "https://www.Example.org/x", "www.example.org", " example.org " → "example.org"; null when
 * it names no host. */
export function normalizeHost(text) {
  let t = String(text || "").trim().toLowerCase();
  if (!t) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//.test(t)) t = `https://${t}`;
  let host;
  try {
    host = new URL(t).hostname;
  } catch {
    return null;
  }
  host = host.replace(/^www\./, "").replace(/\.$/, "");
  return /^[a-z0-9.-]+$/.test(host) && host.includes(".") || host === "localhost" ? host : null;
}

/** Is the bar switched off on `hostname`, given the list `off`? */
export function barIsOffOn(off, hostname) {
  const host = String(hostname || "").toLowerCase().replace(/^www\./, "");
  return (Array.isArray(off) ? off : []).some((h) => {
    const want = normalizeHost(h);
    return want && (host === want || host.endsWith(`.${want}`));
  });
}
