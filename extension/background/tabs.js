/**
 * The active tab: the keyboard command, and the toolbar's "Save this page". Pages the content
 * script knows save their focused paper themselves; any other page with Highwire citation_* tags
 * is read by lib/adapters.js's readCitationMeta, injected with activeTab (granted by the click on
 * the toolbar button, for that tab only).
 */

import { readCitationMeta, toSavePayload } from "../lib/adapters.js";
import { MessageType } from "../lib/messages.js";
import { ItemKind } from "./sender.js";
import { saveDedupeKey, sendOrQueue } from "./outbox.js";

async function activeTab() {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab || null;
}

/** The keyboard command: the page saves the paper the reader is on. */
export async function saveFocusedPaper() {
  const tab = await activeTab();
  if (tab) chrome.tabs.sendMessage(tab.id, { type: MessageType.SAVE_FOCUSED }).catch(() => {});
}

/** "Save this page": the focused paper of a page we know, else the paper its meta tags describe. */
export async function saveActiveTab() {
  const tab = await activeTab();
  if (!tab) throw new Error("No active tab.");
  try {
    const r = await chrome.tabs.sendMessage(tab.id, { type: MessageType.SAVE_FOCUSED });
    if (r && r.ok) return { status: "sent", via: "page" };
  } catch {
    // no papershelf content script in this tab: read its meta tags instead
  }
  const [injection] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: readCitationMeta });
  const meta = injection && injection.result;
  if (!meta) throw new Error("This page has no citation_* meta tags: nothing to save.");
  const paper = toSavePayload(meta, tab.url);
  return sendOrQueue(ItemKind.SAVE, { paper }, saveDedupeKey(meta.arxiv_id || meta.doi || meta.url));
}
