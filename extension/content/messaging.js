/**
 * The content script's line to the background worker, which alone talks to the server: a
 * long-lived port (lib/port.js). The worker's router answers a content script only the types
 * lib/messages.js lists in CONTENT_SCRIPT_TYPES, and only on the pages of the manifest.
 */

import { PORT_NAME } from "../lib/messages.js";
import { createPortClient } from "../lib/port.js";

export const { request } = createPortClient(() => chrome.runtime.connect({ name: PORT_NAME }));

/** Only the worker (or our own pages) sends to a content script: not a tab, not another extension. */
export function fromOurWorker(sender) {
  return Boolean(sender && sender.id === chrome.runtime.id && !sender.tab);
}
