/**
 * The background service worker's entry: the only part of the extension that talks to the
 * papershelf server and the only holder of the token. Wiring only, on the first turn as a
 * service worker must: router.js answers messages (checking who sent them), sender.js talks to the
 * server, outbox.js keeps what could not be sent (retried by chrome.alarms, counted on the badge),
 * panels.js serves the notes panels, reader.js opens PDFs in the reader (and arXiv's instead of
 * the browser's viewer), tabs.js acts on the active tab, storage.js is
 * chrome.storage as the worker sees it. No onMessageExternal / onConnectExternal, and no
 * externally_connectable in the manifest: web pages and other extensions cannot reach it.
 */

import { answerMessage, answerPort, handlers, route } from "./router.js";
import { OUTBOX_ALARM, flush, outbox, showWaiting } from "./outbox.js";
import { forgetTab } from "./panels.js";
import { applyRedirects, forgetReaderTab } from "./reader.js";
import { forgetBadge, saveFocusedPaper, saveTab } from "./tabs.js";
import { rememberChanges } from "./storage.js";

const SAVE_COMMAND = "save-focused-paper"; // manifest.json "commands"

chrome.storage.onChanged.addListener(rememberChanges);
chrome.runtime.onMessage.addListener(answerMessage);
chrome.runtime.onConnect.addListener(answerPort);
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === OUTBOX_ALARM) flush();
});
/** manifest.json "commands" → what each does. */
const commands = { [SAVE_COMMAND]: saveFocusedPaper };

chrome.commands.onCommand.addListener((command) => {
  if (Object.hasOwn(commands, command)) commands[command]();
});
chrome.tabs.onRemoved.addListener((tabId) => {
  forgetTab(tabId);
  forgetBadge(tabId);
  forgetReaderTab(tabId);
});
chrome.runtime.onStartup.addListener(() => showWaiting());
chrome.runtime.onInstalled.addListener(() => {
  showWaiting();
  applyRedirects().catch((err) => console.warn("papershelf: PDF redirect rules", err.message)); // on by default for arXiv
});

// For tests and the worker's console: the router's table (looked up at each message, so a test
// may wrap a handler), route() with the sender check, the outbox, what the alarm runs, and what
// each keyboard command runs, and saveTab, what "Save this page" and the command do with the
// active tab once activeTab reveals its URL (headless Chromium can neither click the toolbar
// button nor press a command's keys, which grant activeTab).
globalThis.papershelf = { handlers, route, outbox, flush, commands, saveTab };
