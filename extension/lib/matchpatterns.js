/**
 * WebExtension match patterns (`https://arxiv.org/abs/*`, `*://*.example.org/*`, `<all_urls>`)
 * as the browser reads them for content scripts, so that the worker can hold a sender's URL to
 * the manifest's own patterns. A URL that cannot be parsed matches nothing.
 */

const SCHEMES = ["http", "https", "ws", "wss", "ftp", "file"];

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One pattern → a predicate on a URL string. An invalid pattern matches nothing. */
export function compileMatchPattern(pattern) {
  if (pattern === "<all_urls>") {
    return (url) => {
      try {
        return SCHEMES.includes(new URL(url).protocol.slice(0, -1));
      } catch {
        return false;
      }
    };
  }
  const m = /^(\*|[a-z][a-z0-9+.-]*):\/\/(\*|\*\.[^/*]+|[^/*]*)(\/.*)$/.exec(pattern);
  if (!m) return () => false;
  const [, scheme, host, path] = m;
  const pathRe = new RegExp(`^${path.split("*").map(escapeRegExp).join(".*")}$`, "s");
  return (url) => {
    let u;
    try {
      u = new URL(url);
    } catch {
      return false;
    }
    const proto = u.protocol.slice(0, -1);
    if (scheme === "*" ? proto !== "http" && proto !== "https" : proto !== scheme) return false;
    const hostname = u.hostname.toLowerCase();
    if (host.startsWith("*.")) {
      const base = host.slice(2).toLowerCase();
      if (hostname !== base && !hostname.endsWith(`.${base}`)) return false;
    } else if (host !== "*" && hostname !== host.toLowerCase()) {
      return false;
    }
    return pathRe.test(u.pathname + u.search);
  };
}

/** A predicate that is true when a URL matches any of `patterns`. */
export function compileMatchPatterns(patterns) {
  const tests = (patterns || []).map(compileMatchPattern);
  return (url) => typeof url === "string" && tests.some((t) => t(url));
}
