/**
 * The papershelf HTTP API as the extension uses it (docs/http-api.md). Only the background worker
 * calls this; `fetch` is injected so that the logic is testable. Failures are SendErrors that say
 * whether a retry can help (network down, 5xx, 429) or not (401, 422, …).
 */

import { SendError, isRetryableStatus } from "./outbox.js";

export const DEFAULT_SERVER_URL = "http://127.0.0.1:5180";

export function normalizeServerUrl(url) {
  const text = String(url || "").trim() || DEFAULT_SERVER_URL;
  return text.replace(/\/+$/, "").replace(/\/api$/, "");
}

/** The library's page on the server `serverUrl`: the list, or the paper `paperId`'s own page. */
export function libraryUrl(serverUrl, paperId = null) {
  const base = normalizeServerUrl(serverUrl);
  return paperId == null ? `${base}/` : `${base}/papers/${encodeURIComponent(paperId)}`;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Is `url` a server on this machine? */
export function isLoopbackUrl(url) {
  try {
    const host = new URL(url).hostname;
    return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Which servers work: any papershelf server, on this machine or another, since the worker's
 * requests are answered through CORS (the server allows extension origins); no host permission
 * is asked for. A server on another machine should be reached over HTTPS: the token and the notes
 * travel in every request. Returns a warning for plain HTTP to another machine, or "".
 */
export function transportWarning(url) {
  let u;
  try {
    u = new URL(normalizeServerUrl(url));
  } catch {
    return "";
  }
  if (u.protocol === "http:" && !isLoopbackUrl(u.href)) {
    return `${u.host} is reached over plain HTTP: the token and your notes would cross the network unencrypted. Use https:// for a server on another machine.`;
  }
  return "";
}

export function createClient({ serverUrl, token, fetch: fetchImpl = globalThis.fetch, timeoutMs = 10000 }) {
  const base = normalizeServerUrl(serverUrl);

  async function request(method, path, { body, auth = true, raw = false } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (auth) headers.Authorization = `Bearer ${token || ""}`;
    let res;
    const ctrl = typeof AbortController === "function" ? new AbortController() : null;
    const timer = ctrl ? setTimeout(() => ctrl.abort(), timeoutMs) : null;
    try {
      res = await fetchImpl(base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: ctrl ? ctrl.signal : undefined,
        credentials: "omit",
        cache: "no-store",
      });
    } catch (err) {
      throw new SendError(`server unreachable at ${base} (${(err && err.message) || err})`, {
        retryable: true,
        status: 0,
        code: "unreachable",
      });
    } finally {
      if (timer) clearTimeout(timer);
    }
    if (raw) return res;
    const text = await res.text();
    let data;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!res.ok) {
      const e = (data && data.error) || {};
      const err = new SendError(e.message || `HTTP ${res.status}`, {
        retryable: isRetryableStatus(res.status),
        status: res.status,
        code: e.code || (data ? "" : "not_papershelf"),
      });
      err.fields = e.fields;
      throw err;
    }
    if (text && data === null) {
      throw new SendError(`not a papershelf answer from ${base}${path}`, { retryable: false, status: res.status, code: "not_papershelf" });
    }
    return data;
  }

  return {
    base,
    health: () => request("GET", "/api/health", { auth: false }),
    lookup: (keys) => {
      const arxiv_ids = keys.filter((k) => !/^https?:/.test(k));
      const urls = keys.filter((k) => /^https?:/.test(k));
      return request("POST", "/api/papers/lookup", { body: { arxiv_ids, urls } });
    },
    savePaper: (body) => request("POST", "/api/papers", { body }),
    addNote: (paperId, body) => request("POST", `/api/papers/${encodeURIComponent(paperId)}/notes`, { body }),
    updateNote: (id, body) => request("PATCH", `/api/notes/${encodeURIComponent(id)}`, { body }),
    deleteNote: (id) => request("DELETE", `/api/notes/${encodeURIComponent(id)}`),
    getPaper: (paperId) => request("GET", `/api/papers/${encodeURIComponent(paperId)}`),
    addHighlight: (paperId, body) => request("POST", `/api/papers/${encodeURIComponent(paperId)}/highlights`, { body }),
    updateHighlight: (id, body) => request("PATCH", `/api/highlights/${encodeURIComponent(id)}`, { body }),
    patchPaper: (paperId, body) => request("PATCH", `/api/papers/${encodeURIComponent(paperId)}`, { body }),
    /** The newest saved papers first (their tags: the ones used last). */
    listPapers: ({ limit = 50 } = {}) => request("GET", `/api/papers?${new URLSearchParams({ limit: String(limit) })}`),
    listGroups: () => request("GET", "/api/groups"),
    paperGroups: (paperId) => request("GET", `/api/papers/${encodeURIComponent(paperId)}/groups`),
    /** The export as a file (a raw Response); `ids`: only those papers. */
    exportFile: (format = "bibtex", { ids } = {}) => {
      const query = new URLSearchParams({ format });
      if (ids && ids.length) query.set("ids", ids.join(","));
      return request("GET", `/api/export?${query}`, { raw: true });
    },
  };
}

/**
 * Check a server URL and token, with one message per kind of failure:
 * server down, something else answering at that URL, wrong token.
 * Returns {ok, kind: "ok"|"down"|"wrong_url"|"wrong_token"|"error", message, version?}.
 */
export async function testConnection({ serverUrl, token, fetch: fetchImpl = globalThis.fetch }) {
  let base;
  try {
    base = normalizeServerUrl(serverUrl);
    const u = new URL(base);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
  } catch {
    return { ok: false, kind: "wrong_url", message: `"${serverUrl}" is not a URL. Use e.g. ${DEFAULT_SERVER_URL}` };
  }
  const client = createClient({ serverUrl: base, token, fetch: fetchImpl, timeoutMs: 5000 });
  let health;
  try {
    health = await client.health();
  } catch (err) {
    if (err.code === "unreachable") {
      const message = isLoopbackUrl(base)
        ? `No server answers at ${base}. Is "papershelf serve" running?`
        : `No papershelf server answers at ${base}, or it does not let this extension in (PAPERSHELF_CORS_ORIGINS on the server must allow extension origins, as it does by default).`;
      return { ok: false, kind: "down", message };
    }
    return {
      ok: false,
      kind: "wrong_url",
      message: `${base} answered (HTTP ${err.status || "?"}) but it is not a papershelf server. Check the URL.`,
    };
  }
  if (!health || health.status !== "ok") {
    return { ok: false, kind: "wrong_url", message: `${base} answered but it is not a papershelf server. Check the URL.` };
  }
  if (!token) return { ok: false, kind: "wrong_token", message: "Server found, but no token is set. Paste the token." };
  try {
    await client.lookup([]);
  } catch (err) {
    if (err.status === 401) {
      return { ok: false, kind: "wrong_token", message: "Server found, but it refused the token. Paste a valid token." };
    }
    return { ok: false, kind: "error", message: `Server found, but the check failed: ${err.message}` };
  }
  return { ok: true, kind: "ok", message: `Connected to papershelf ${health.version || ""} at ${base}.`.replace("  ", " "), version: health.version };
}

/**
 * What to say when the extension and the server are not the same release (both carry the server
 * package's one version number; the build stamps it into the extension): "" when they agree or
 * the server's is not known.
 */
export function versionMismatch(extensionVersion, serverVersion) {
  if (!extensionVersion || !serverVersion || extensionVersion === serverVersion) return "";
  return `The extension is version ${extensionVersion} and the server ${serverVersion}: they do not match. Install the extension built for this server (npm run build), or update the server.`;
}
