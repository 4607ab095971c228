/**
 * The active tab: the keyboard command, and the toolbar's "Save this page". Pages the content
 * script knows save their focused paper themselves; any arXiv or alphaXiv tab (an abstract, a
 * PDF, the HTML view, an alphaXiv paper page) is saved from its URL alone, and the server titles
 * the paper from arXiv; any other page is read by the content script's own readers
 * (lib/adapters/: embedded metadata and the site adapters), loaded into the tab with activeTab
 * (granted by the click on the toolbar button, for that tab only).
 *
 * Also the toolbar badge of a private page (outside the named sites): the one place, besides the
 * notes panel, where that page's paper shows as saved.
 */

import { marksInPage, paperFromUrl } from "../lib/adapters/index.js";
import { arxivAbsUrl, paperKey } from "../lib/ids.js";
import { MessageType } from "../lib/messages.js";
import { pdfOfReaderUrl } from "../lib/pdf.js";
import { ItemKind } from "./sender.js";
import { Role } from "./trust.js";
import { saveDedupeKey, sendOrQueue } from "./outbox.js";

async function activeTab() {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab || null;
}

/** The keyboard command: the same as the toolbar's "Save this page". */
export async function saveFocusedPaper() {
  try {
    return await saveActiveTab();
  } catch (err) {
    console.debug("papershelf: nothing to save in this tab", err.message);
    return null;
  }
}

/** The body that saves the paper an arXiv or alphaXiv URL names: its id alone (the server titles
 * it from arXiv). */
export function savePayloadFromUrl(url) {
  const found = paperFromUrl(url);
  if (!found) return null;
  const paper = { arxiv_id: found.arxiv_id, url: arxivAbsUrl(found.arxiv_id), source_url: url };
  if (found.version) paper.arxiv_version = found.version;
  return paper;
}

/**
 * "Save this page" and the keyboard command: the focused paper of a page the content script
 * knows; else the paper an arXiv or alphaXiv URL names (a PDF tab, where no content script runs);
 * else the paper its citation_* meta tags describe.
 */
export async function saveActiveTab() {
  return saveTab(await activeTab());
}

/** Save the paper of `tab` ({id, url}; its url is there once activeTab is granted: a click on
 * the toolbar button or the keyboard command). */
export async function saveTab(tab) {
  if (!tab) throw new Error("No active tab.");
  try {
    const r = await chrome.tabs.sendMessage(tab.id, { type: MessageType.SAVE_FOCUSED });
    if (r && r.ok) return { status: "sent", via: "page" };
  } catch {
    // no papershelf content script in this tab: its URL, else its meta tags
  }
  // A PDF open in the reader (an extension page: no content script, no injection) is saved
  // as the PDF it shows; the reader's own Save bar does the same.
  const url = pdfOfReaderUrl(chrome.runtime.getURL(""), tab.url) || tab.url || "";
  const fromUrl = savePayloadFromUrl(url);
  if (fromUrl) {
    const r = await sendOrQueue(ItemKind.SAVE, { paper: fromUrl }, saveDedupeKey(paperKey(fromUrl)));
    return { ...r, via: "url" };
  }
  if (url !== (tab.url || "")) throw new Error("Save this PDF with the reader's own Save button.");
  const [injection] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: readPageInTab });
  const paper = injection && injection.result;
  if (!paper) throw new Error("This page describes no paper: nothing to save.");
  // Queued under the key the page knows the paper by, as a page's own save is.
  const r = await sendOrQueue(ItemKind.SAVE, { paper }, saveDedupeKey(paperKey(paper)));
  if (r.paper && !marksInPage(tab.url || "")) await showSavedState(tab.id, true);
  return r;
}

/** Run in the tab (serialized by executeScript: nothing from outside its body): the save body of
 * the paper the page describes, read by the extension's adapters, or null. */
async function readPageInTab() {
  const { pageSavePayload } = await import(chrome.runtime.getURL("lib/adapters/index.js"));
  return pageSavePayload(document, location.href);
}

/** A content script on a page outside the named sites: told nothing of the library. */
export function isPrivatePage(sender, role) {
  return role === Role.CONTENT && !marksInPage((sender && sender.tab && sender.tab.url) || (sender && sender.url) || "");
}

/** The toolbar badge of tab `tabId`: ✓ when its paper is in the library, nothing otherwise. */
export async function showSavedState(tabId, saved) {
  try {
    await chrome.action.setBadgeText({ tabId, text: saved ? "✓" : "" });
    await chrome.action.setTitle({ tabId, title: saved ? "papershelf: this page's paper is saved" : "papershelf" });
    if (saved) await chrome.action.setBadgeBackgroundColor({ tabId, color: "#15803d" });
  } catch {
    // the tab is gone
  }
}
