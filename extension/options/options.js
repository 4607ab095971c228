/** Options page: server URL and token in chrome.storage.local; "Test connection" asks the
 * background worker, which names the failure (server down, wrong URL, wrong token). Any server
 * works through CORS (no host permission is asked for); plain HTTP to another machine is warned
 * about. The extension's version and the server's are shown, with a warning when they differ.
 * Whether arXiv's PDFs open in the reader is set here too (the worker keeps the rules), and the
 * sites where the page bar stays off (`barOffHosts`, read by the content script). */

import { DEFAULT_SERVER_URL, normalizeServerUrl, transportWarning, versionMismatch } from "../lib/api.js";
import { MessageType, resultOf } from "../lib/messages.js";
import { normalizeHost } from "../lib/sites.js";

const form = document.getElementById("form");
const serverUrl = document.getElementById("serverUrl");
const token = document.getElementById("token");
const result = document.getElementById("result");
const transport = document.getElementById("transport");
const serverVersion = document.getElementById("server-version");
const versionWarning = document.getElementById("version-warning");
const EXTENSION_VERSION = chrome.runtime.getManifest().version;
let checks = 0; // connection checks the user asked for

/** The result line in the message style of its kind: success, error, or still working. */
function show(kind, message) {
  result.dataset.kind = kind;
  result.className = kind === "ok" ? "ps-msg-ok" : kind ? "ps-msg-err" : "ps-msg-progress";
  result.textContent = message;
}

function warnAboutTransport() {
  const warning = transportWarning(serverUrl.value);
  transport.hidden = !warning;
  transport.textContent = warning;
}

/** The versions line: this extension's, and the server's once a connection check told it. */
function showVersions(server) {
  document.getElementById("extension-version").textContent = `Extension ${EXTENSION_VERSION}`;
  serverVersion.textContent = server ? `server ${server}` : "server: test the connection to see its version";
  serverVersion.dataset.version = server || "";
  const warning = versionMismatch(EXTENSION_VERSION, server);
  versionWarning.hidden = !warning;
  versionWarning.textContent = warning;
}

function checkConnection(url, key) {
  return chrome.runtime.sendMessage({ type: MessageType.TEST_CONNECTION, payload: { serverUrl: url, token: key } });
}

async function load() {
  const s = await chrome.storage.local.get(["serverUrl", "token"]);
  serverUrl.value = s.serverUrl || DEFAULT_SERVER_URL;
  token.value = s.token || "";
  warnAboutTransport();
  showVersions(null);
  if (s.token) {
    // Quietly: the saved server's version, without a verdict in the result line (and unless the
    // user checked another server meanwhile).
    const asked = checks;
    const answer = await checkConnection(serverUrl.value, token.value).catch(() => null);
    if (asked === checks && answer && answer.ok && answer.result.ok) showVersions(answer.result.version);
  }
}

async function test() {
  checks += 1;
  show("", "Testing…");
  const answer = await checkConnection(serverUrl.value, token.value.trim());
  let check;
  try {
    check = resultOf(answer, "The extension did not answer.");
  } catch (err) {
    show("error", err.message);
    return false;
  }
  show(check.kind, check.message);
  if (check.ok) showVersions(check.version);
  return check.ok;
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  await chrome.storage.local.set({ serverUrl: normalizeServerUrl(serverUrl.value), token: token.value.trim() });
  show("", "Saved. Testing…");
  if (await test()) show("ok", `Saved. ${result.textContent}`);
});
document.getElementById("test").addEventListener("click", test);
serverUrl.addEventListener("input", warnAboutTransport);
load();

// ---- PDFs: arXiv's PDFs in the reader (on by default) --------------------------------------

const redirectArxiv = document.getElementById("redirect-arxiv");
const redirectResult = document.getElementById("redirect-result");

async function pdfRedirects(payload = {}) {
  return resultOf(await chrome.runtime.sendMessage({ type: MessageType.PDF_REDIRECTS, payload }), "The extension did not answer.");
}

redirectArxiv.addEventListener("change", async () => {
  try {
    const now = await pdfRedirects({ arxiv: redirectArxiv.checked });
    redirectArxiv.checked = now.arxiv;
    redirectResult.textContent = now.arxiv ? "arXiv's PDFs open in the reader." : "arXiv's PDFs open in the browser's viewer.";
  } catch (err) {
    redirectResult.textContent = err.message;
  }
});
pdfRedirects().then((now) => {
  redirectArxiv.checked = now.arxiv;
}, (err) => {
  redirectResult.textContent = err.message;
});

// ---- Sites where the bar stays off ----------------------------------------------------------

const barOff = document.getElementById("bar-off-hosts");
const barOffResult = document.getElementById("bar-off-result");

chrome.storage.local.get("barOffHosts").then(({ barOffHosts }) => {
  barOff.value = (barOffHosts || []).join("\n");
});
document.getElementById("save-bar-off").addEventListener("click", async () => {
  const lines = barOff.value.split(/[\s,]+/).filter(Boolean);
  const hosts = [...new Set(lines.map(normalizeHost).filter(Boolean))];
  const bad = lines.filter((l) => !normalizeHost(l));
  await chrome.storage.local.set({ barOffHosts: hosts });
  barOff.value = hosts.join("\n");
  barOffResult.textContent = (hosts.length ? `Off on ${hosts.length} site${hosts.length > 1 ? "s" : ""} (from their next page load).` : "On everywhere.") +
    (bad.length ? ` Not a host: ${bad.join(", ")}.` : "");
});
