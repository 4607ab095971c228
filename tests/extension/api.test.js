import { test } from "node:test";
import assert from "node:assert/strict";
import { createClient, isLoopbackUrl, normalizeServerUrl, testConnection, transportWarning, versionMismatch } from "../../extension/lib/api.js";

/** A fetch that answers like a server would: routes → [status, body]. */
function fakeFetch(routes, seen = []) {
  return async (url, init) => {
    seen.push({ url, init });
    const path = new URL(url).pathname;
    const route = routes[path];
    if (route === "down") throw new TypeError("Failed to fetch");
    const [status, body, type = "application/json"] = route ? route(init) : [404, "<html>Not Found</html>", "text/html"];
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return new Response(text, { status, headers: { "Content-Type": type } });
  };
}

const HEALTH = { "/api/health": () => [200, { status: "ok", version: "0.1.0" }] };

test("server URLs are normalized", () => {
  assert.equal(normalizeServerUrl(" http://127.0.0.1:5180/ "), "http://127.0.0.1:5180");
  assert.equal(normalizeServerUrl("http://localhost:5180/api"), "http://localhost:5180");
  assert.equal(normalizeServerUrl(""), "http://127.0.0.1:5180");
});

test("test connection: ok", async () => {
  const r = await testConnection({
    serverUrl: "http://127.0.0.1:5180",
    token: "t",
    fetch: fakeFetch({ ...HEALTH, "/api/papers/lookup": () => [200, { papers: {} }] }),
  });
  assert.equal(r.kind, "ok");
});

test("test connection: server down", async () => {
  const r = await testConnection({ serverUrl: "http://127.0.0.1:5180", token: "t", fetch: fakeFetch({ "/api/health": "down" }) });
  assert.equal(r.kind, "down");
  assert.match(r.message, /papershelf serve/);
});

test("test connection: a server on another machine that does not answer may be refusing the extension (CORS)", async () => {
  const r = await testConnection({ serverUrl: "https://papers.lab.example", token: "t", fetch: fakeFetch({ "/api/health": "down" }) });
  assert.equal(r.kind, "down");
  assert.match(r.message, /PAPERSHELF_CORS_ORIGINS/);
});

test("any host works; plain HTTP to another machine is warned about, HTTPS and this machine are not", () => {
  for (const url of ["http://127.0.0.1:5180", "http://localhost:5180/", "http://127.0.0.2:9", "http://[::1]:5180", "https://papers.lab.example", "https://10.0.0.5/api"]) {
    assert.equal(transportWarning(url), "", url);
  }
  assert.match(transportWarning("http://papers.lab.example:8000"), /plain HTTP.*https:\/\//);
  assert.match(transportWarning("http://192.168.1.20:5180"), /unencrypted/);
  assert.equal(transportWarning("not a url"), "");
  assert.ok(isLoopbackUrl("http://127.0.0.1:5180") && !isLoopbackUrl("http://127.0.0.1.example/"));
});

test("test connection: wrong URL (something else answers)", async () => {
  const r = await testConnection({ serverUrl: "http://127.0.0.1:8000", token: "t", fetch: fakeFetch({}) });
  assert.equal(r.kind, "wrong_url");
  const notUrl = await testConnection({ serverUrl: "not a url", token: "t", fetch: fakeFetch({}) });
  assert.equal(notUrl.kind, "wrong_url");
  const html = await testConnection({ serverUrl: "http://127.0.0.1:8000", token: "t", fetch: fakeFetch({ "/api/health": () => [200, "<html></html>", "text/html"] }) });
  assert.equal(html.kind, "wrong_url");
});

test("test connection: wrong token", async () => {
  const r = await testConnection({
    serverUrl: "http://127.0.0.1:5180",
    token: "bad",
    fetch: fakeFetch({ ...HEALTH, "/api/papers/lookup": () => [401, { error: { code: "unauthorized", message: "bad token" } }] }),
  });
  assert.equal(r.kind, "wrong_token");
  const none = await testConnection({ serverUrl: "http://127.0.0.1:5180", token: "", fetch: fakeFetch(HEALTH) });
  assert.equal(none.kind, "wrong_token");
});

test("the client sends the token and JSON, and classifies failures", async () => {
  const seen = [];
  const api = createClient({
    serverUrl: "http://127.0.0.1:5180",
    token: "secret",
    fetch: fakeFetch(
      {
        "/api/papers": () => [201, { id: 1 }],
        "/api/papers/lookup": () => [503, { error: { code: "internal_error", message: "busy" } }],
        "/api/papers/9/notes": () => [422, { error: { code: "validation_error", message: "bad", fields: { body: ["x"] } } }],
      },
      seen,
    ),
  });
  assert.deepEqual(await api.savePaper({ title: "T" }), { id: 1 });
  assert.equal(seen[0].init.headers.Authorization, "Bearer secret");
  assert.equal(seen[0].init.body, JSON.stringify({ title: "T" }));
  await assert.rejects(api.lookup(["2603.00001", "https://x.org/p"]), (e) => e.retryable && e.status === 503);
  assert.deepEqual(JSON.parse(seen[1].init.body), { arxiv_ids: ["2603.00001"], urls: ["https://x.org/p"] });
  await assert.rejects(api.addNote(9, { body: "" }), (e) => !e.retryable && e.status === 422 && e.fields.body[0] === "x");
  const down = createClient({ serverUrl: "http://127.0.0.1:1", token: "t", fetch: fakeFetch({ "/api/papers": "down" }) });
  await assert.rejects(down.savePaper({ title: "T" }), (e) => e.retryable && e.code === "unreachable");
});

test("the panel's calls: one paper, a highlight's comment, the BibTeX of some papers", async () => {
  const seen = [];
  const api = createClient({
    serverUrl: "http://127.0.0.1:5180",
    token: "t",
    fetch: fakeFetch(
      {
        "/api/papers/p%2F1": () => [200, { id: "p/1", notes: [] }],
        "/api/highlights/7": () => [200, { id: 7, comment: "c" }],
        "/api/export": () => [200, "@misc{a,}", "application/x-bibtex"],
      },
      seen,
    ),
  });
  assert.deepEqual(await api.getPaper("p/1"), { id: "p/1", notes: [] });
  assert.deepEqual(await api.updateHighlight(7, { comment: "c" }), { id: 7, comment: "c" });
  assert.equal(seen[1].init.method, "PATCH");
  assert.equal(seen[1].init.body, JSON.stringify({ comment: "c" }));
  const res = await api.exportFile("bibtex", { ids: ["a1", "b2"] });
  assert.equal(await res.text(), "@misc{a,}");
  assert.equal(new URL(seen[2].url).search, "?format=bibtex&ids=a1%2Cb2");
  await api.exportFile();
  assert.equal(new URL(seen[3].url).search, "?format=bibtex");
});

test("the extension's version against the server's: one number, said when they differ", () => {
  assert.equal(versionMismatch("0.1.0", "0.1.0"), "");
  assert.equal(versionMismatch("0.1.0", undefined), "", "not known yet: nothing to say");
  assert.equal(versionMismatch("0.1.0", ""), "");
  const said = versionMismatch("0.1.0", "0.2.0");
  assert.match(said, /extension is version 0\.1\.0 and the server 0\.2\.0: they do not match/);
  assert.notEqual(versionMismatch("0.1.0", "0.1.0.post1"), "", "no guessing which releases agree");
});
