/**
 * The worker's side of the PDF reader: opening a PDF in it (the paper bar's "Read in papershelf",
 * the popup's "Open this PDF in the reader"), the rules that open arXiv's PDFs in it instead of
 * the browser's viewer (declarativeNetRequest dynamic rules, lib/pdf.js redirectRules; on by
 * default, set from the options page), and the reader's "Original PDF": the PDF itself in the
 * reader's tab, let through once by a session rule for that tab and that URL.
 */

import { READER_PATH, isHttpUrl, originalPdfRule, readerUrl, redirectRules } from "../lib/pdf.js";
import { storage } from "./storage.js";

const REDIRECT_KEY = "pdfRedirects"; // chrome.storage.local: {arxiv: boolean}
const DEFAULT_REDIRECTS = Object.freeze({ arxiv: true });
const ORIGINAL_RULE_BASE = 1000;

function invalid(message) {
  return Object.assign(new Error(message), { code: "invalid" });
}

function pdfUrl(url) {
  if (!isHttpUrl(url)) throw invalid("Only an http(s) PDF opens in the reader.");
  return new URL(url).href;
}

/** Open the PDF at `url` in the reader: in tab `tabId` (the popup's tab), else in a new tab next
 * to the sender's. */
export async function openReader({ url, tabId }, sender) {
  const target = readerUrl(chrome.runtime.getURL(""), pdfUrl(url));
  if (Number.isInteger(tabId)) {
    await chrome.tabs.update(tabId, { url: target });
    return { tabId };
  }
  const from = sender && sender.tab;
  const tab = await chrome.tabs.create({ url: target, ...(from ? { index: from.index + 1, openerTabId: from.id } : {}) });
  return { tabId: tab.id };
}

/** The reader's tab opens its PDF itself: a session rule lets that tab load that URL once more
 * without the redirect (removed when the tab goes), then the tab goes there. */
export async function originalPdf({ url }, sender) {
  const target = pdfUrl(url);
  if (!sender.tab) throw invalid("No tab to open the PDF in.");
  const id = ORIGINAL_RULE_BASE + (sender.tab.id % 1_000_000);
  await chrome.declarativeNetRequest.updateSessionRules({
    removeRuleIds: [id],
    addRules: [originalPdfRule(id, target, sender.tab.id)],
  });
  await chrome.tabs.update(sender.tab.id, { url: target });
  return {};
}

/** The redirect options now ({arxiv}). */
export async function redirectOptions() {
  return { ...DEFAULT_REDIRECTS, ...((await storage.get(REDIRECT_KEY)) || {}) };
}

/** Install the dynamic rules that the options ask for. */
export async function applyRedirects() {
  const options = await redirectOptions();
  const existing = await chrome.declarativeNetRequest.getDynamicRules();
  await chrome.declarativeNetRequest.updateDynamicRules({
    removeRuleIds: existing.map((r) => r.id),
    addRules: redirectRules(chrome.runtime.getURL(READER_PATH), options),
  });
  return options;
}

/** The options page: set ({arxiv: boolean}) and apply, or read (no argument). */
export async function pdfRedirects({ arxiv } = {}) {
  if (typeof arxiv === "boolean") await storage.set(REDIRECT_KEY, { ...(await redirectOptions()), arxiv });
  return applyRedirects();
}

/** A tab went away: its "Original PDF" pass goes too. */
export async function forgetReaderTab(tabId) {
  try {
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [ORIGINAL_RULE_BASE + (tabId % 1_000_000)] });
  } catch {
    // no such rule
  }
}
