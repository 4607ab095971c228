/**
 * The active tab: the keyboard command, and the toolbar's "Save this page". Pages the content
 * script knows save their focused paper themselves; any arXiv or alphaXiv tab (an abstract, a
 * PDF, the HTML view, an alphaXiv paper page) is saved from its URL alone, and the server titles
 * the paper from arXiv; any other page is read by the content script's own readers
 * (lib/adapters/: embedded metadata and the site adapters), loaded into the tab with activeTab
 * (granted by the click on the toolbar button, for that tab only). A tab no script can read (a
 * PDF of a known site: ACM's /doi/pdf/…, OpenReview's pdf?id=, IEEE's stamp.jsp…) is saved from
 * the identity its address gives (lib/identities.js), and the server merges it into the paper
 * its landing page saved.
 *
 * Also the toolbar badge of a private page (outside the named sites): the one place, besides the
 * notes panel, where that page's paper shows as saved.
 */

import { marksInPage, paperFromUrl } from "../lib/adapters/index.js";
import { arxivAbsUrl, paperKey } from "../lib/ids.js";
import { identitiesOfUrl } from "../lib/identities.js";
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

const PDF_PATH = /\.pdf$|\/(?:e?pdf|pdfdirect|pdfft|stamp\.jsp|getPDF\.jsp)(?:\/|$)|^\/pdf$|^\/attachment$/i;

/** Whether an address is a paper's PDF rather than its landing page (as the sites write them). */
export function looksLikePdf(url) {
  try {
    return PDF_PATH.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** The body that saves the paper a known site's address names (its DOI, OpenReview or ACL id,
 * IEEE arnumber, PII…), with the identity it is known by; null when the address names no paper
 * (it would give only url:). `title`: the tab's, else the identity (the server keeps a better one
 * a page gave). */
export function savePayloadFromIdentity(url, title) {
  const [identity] = identitiesOfUrl(url || "");
  if (!identity || identity.startsWith("url:")) return null;
  const paper = { title: (title || "").trim() || identity, url };
  if (identity.startsWith("doi:")) paper.doi = identity.slice(4);
  if (looksLikePdf(url)) paper.pdf_url = url;
  return { paper, identity };
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
  const inReader = url !== (tab.url || "");
  let paper = null;
  if (!inReader) {
    try {
      const [injection] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: readPageInTab });
      paper = injection && injection.result;
    } catch {
      // a PDF viewer or another page no script runs in: its address alone
    }
  }
  if (!paper) {
    const fromIdentity = savePayloadFromIdentity(url, inReader ? "" : tab.title);
    if (!fromIdentity) {
      if (inReader) throw new Error("Save this PDF with the reader's own Save button.");
      throw new Error("This page describes no paper: nothing to save.");
    }
    const r = await sendOrQueue(ItemKind.SAVE, { paper: fromIdentity.paper }, saveDedupeKey(fromIdentity.identity));
    if (r.paper && !marksInPage(tab.url || "")) await showSavedState(tab.id, true);
    return { ...r, via: "identity" };
  }
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

/** tabId → how many times its badge was set to saved (a save, or a lookup that found it). */
const savedShown = new Map();

/** How many times tab `tabId`'s badge was set to saved: a private page's lookup compares it
 * before and after its answer, which, asked before a save, says what was true before it. */
export function savedShownCount(tabId) {
  return savedShown.get(tabId) || 0;
}

/** Tab `tabId` is gone. */
export function forgetBadge(tabId) {
  savedShown.delete(tabId);
}

/** The toolbar badge of tab `tabId`: ✓ when its paper is in the library, nothing otherwise. */
export async function showSavedState(tabId, saved) {
  if (saved) savedShown.set(tabId, savedShownCount(tabId) + 1);
  try {
    await chrome.action.setBadgeText({ tabId, text: saved ? "✓" : "" });
    await chrome.action.setTitle({ tabId, title: saved ? "papershelf: this page's paper is saved" : "papershelf" });
    if (saved) await chrome.action.setBadgeBackgroundColor({ tabId, color: "#15803d" });
  } catch {
    // the tab is gone
  }
}
