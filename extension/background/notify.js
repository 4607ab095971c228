/**
 * What the worker tells the other parts unasked: a page's content script (chrome.tabs.sendMessage
 * to its frame: only what the page may see) and the notes panels (chrome.runtime.sendMessage,
 * which reaches the extension's own pages only: a doorbell without data, after which a panel asks
 * for its state on its port). Nobody listening is not an error.
 */

import { MessageType } from "../lib/messages.js";

/** Send `type` with `payload` to the content script of tab `tabId` (its frame `frameId`). */
export function tellPage(tabId, frameId, type, payload = {}) {
  try {
    chrome.tabs.sendMessage(tabId, { type, payload }, { frameId: frameId || 0 }).catch(() => {});
  } catch {
    // the tab is gone
  }
}

/** Every page: look your papers up again (something that waited was sent). */
export async function refreshPages() {
  let tabs;
  try {
    tabs = await chrome.tabs.query({});
  } catch {
    return;
  }
  for (const tab of tabs) tellPage(tab.id, 0, MessageType.REFRESH);
}

/** Ring the notes panel of frame `frameId` in tab `tabId` (null, null: every panel). */
export function ringPanels(tabId = null, frameId = null) {
  try {
    chrome.runtime.sendMessage({ type: MessageType.PANEL_CHANGED, payload: { tabId, frameId } }).catch(() => {});
  } catch {
    // no extension page is open
  }
}
