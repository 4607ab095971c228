/**
 * What the worker tells the other parts unasked: a page's content script (chrome.tabs.sendMessage
 * to its frame: only what the page may see) and the notes panels (a doorbell without data, after
 * which a panel asks for its state on its port). Both go by chrome.tabs.sendMessage, which reaches
 * only our own scripts and frames in a tab. Nobody listening is not an error.
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

/**
 * Ring the notes panel of frame `frameId` in tab `tabId` (null, null: every panel). A panel is an
 * extension frame inside a page: Firefox delivers chrome.runtime.sendMessage to the extension's
 * tabs and background page but not to its frames inside pages, while chrome.tabs.sendMessage
 * reaches a tab's frames, ours included, in both browsers (a content script ignores the type).
 */
export async function ringPanels(tabId = null, frameId = null) {
  const msg = { type: MessageType.PANEL_CHANGED, payload: { tabId, frameId } };
  let tabIds = [tabId];
  if (tabId == null) {
    try {
      tabIds = (await chrome.tabs.query({})).map((tab) => tab.id);
    } catch {
      return;
    }
  }
  for (const id of tabIds) {
    try {
      chrome.tabs.sendMessage(id, msg, frameId != null ? { frameId } : {}).catch(() => {});
    } catch {
      // the tab is gone
    }
  }
}
