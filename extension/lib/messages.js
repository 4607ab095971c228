/**
 * The messages between the extension's parts, declared in one table (as Zotero's connectors
 * declare theirs). A message is `{type, payload}`; the worker answers `{ok: true, result}` or
 * `{ok: false, error: {message, code, status}}`. Every sender and the worker's router use these
 * constants: no other file spells a message type.
 *
 * Who may ask what is part of the table: a page's content script may send only the types in
 * CONTENT_SCRIPT_TYPES (and gets no note or comment text back), the PDF reader only READER_TYPES;
 * the extension's other pages (popup, options, the notes panel) may send any type the router
 * handles. Notes and comments are read and
 * written only by the notes panel, an extension page in an iframe (panel/).
 */

export const MessageType = Object.freeze({
  // A page's content script asks the worker, on its port (PORT_NAME).
  LOOKUP: "lookup", // {keys} → {papers: {key: page-safe paper}, queued: [key]}
  SAVE: "save", // {key, paper} → {status: "sent", paper} | {status: "queued", client_id}
  HIGHLIGHT: "highlight", // {key, paper_id, paper, highlight} → {status, highlight | client_id, paper?}
  PANEL_TICKET: "panel-ticket", // {} → {ticket}: a one-time ticket for the tab's panel frame to claim
  OPEN_PANEL: "open-panel", // {key, paper, paper_id, orphans, focus} → {}: show that paper's notes in the tab's panel
  CLOSE_PANEL: "close-panel", // {} → {}: from the content script or the panel itself
  OPEN_READER: "open-reader", // {url, tabId?} → {tabId}: the PDF at url in the reader (a new tab beside the sender's, or tab tabId)

  // The PDF reader (reader/) asks the worker what a content script may ask, and:
  ORIGINAL_PDF: "original-pdf", // {url} → {}: open the PDF itself in the reader's tab, not redirected again

  // The notes panel asks the worker, on its port; the worker answers the frame that claimed the
  // tab's ticket about the paper the content script opened, never another frame or paper.
  CLAIM_PANEL: "claim-panel", // {ticket} → {}: this frame is the tab's panel
  PANEL_STATE: "panel-state", // {} → {frame, bound, key, title, paper_id, citation_key, library_url, published, notes, highlights, focus, error}
  NOTE: "note", // {body} → {status, note | client_id}
  UPDATE_NOTE: "update-note", // {id, body} → the note
  DELETE_NOTE: "delete-note", // {id} → {}
  UPDATE_HIGHLIGHT: "update-highlight", // {id, comment} → the highlight
  BIBTEX: "bibtex", // {} → {text}: the BibTeX entry of the panel's paper
  PANEL_CHOICES: "panel-choices", // {} → {recent_tags, groups, paper: {id, tags, groups, reading_state, starred} | null, library_url}
  PANEL_SAVE: "panel-save", // {tags, groups} → {status, paper_id?}: save the panel's paper with them (saved already: set them)
  PANEL_PATCH: "panel-patch", // {reading_state?, starred?} → {reading_state, starred}: the panel's saved paper

  // The popup asks the worker.
  STATUS: "status", // {} → {configured, serverUrl, recent, queued, failed}
  SAVE_PAGE: "save-page", // {} → {status, …}: the paper the active tab shows
  FLUSH: "flush", // {} → {sent, remaining}
  EXPORT: "export", // {format} → {text, filename, type}

  // The options page asks the worker.
  TEST_CONNECTION: "test-connection", // {serverUrl, token} → {ok, kind, message, version?}
  PDF_REDIRECTS: "pdf-redirects", // {arxiv?: boolean} → {arxiv}: arXiv's PDFs open in the reader (set, or read)

  // The worker tells a page's content script (chrome.tabs.sendMessage); it answers {ok}.
  REFRESH: "refresh", // look the page's papers up again (something queued was sent)
  SAVE_FOCUSED: "save-focused", // save the paper the reader is on (the keyboard command)
  PAPER_UPDATE: "paper-update", // {key, patch}: what the panel changed (counts, saved), no text
  PANEL_CLOSED: "panel-closed", // {}: the panel was closed from inside; focus goes back to Note

  // The worker tells the notes panels (chrome.runtime.sendMessage): a doorbell, no data.
  PANEL_CHANGED: "panel-changed", // {tabId, frameId} (null: every panel): ask PANEL_STATE again
});

/** What a page's content script may ask the worker; anything else from a page is refused. */
export const CONTENT_SCRIPT_TYPES = Object.freeze([
  MessageType.LOOKUP,
  MessageType.SAVE,
  MessageType.HIGHLIGHT,
  MessageType.PANEL_TICKET,
  MessageType.OPEN_PANEL,
  MessageType.CLOSE_PANEL,
  MessageType.OPEN_READER,
]);

/** What the PDF reader may ask the worker: a content script's types, and its own. It shows
 * untrusted files: like a page's script, it is told no note or comment text and holds no token. */
export const READER_TYPES = Object.freeze([...CONTENT_SCRIPT_TYPES, MessageType.ORIGINAL_PDF]);

/** What the worker sends rather than answers. */
export const WORKER_SENDS = Object.freeze([
  MessageType.REFRESH,
  MessageType.SAVE_FOCUSED,
  MessageType.PAPER_UPDATE,
  MessageType.PANEL_CLOSED,
  MessageType.PANEL_CHANGED,
]);

/** The name of the port a content script or the notes panel keeps open to the worker. */
export const PORT_NAME = "papershelf";

/** The worker's answer → its result. An error answer, or none, throws (with its code and status). */
export function resultOf(answer, noAnswer = "papershelf extension unavailable") {
  if (answer && answer.ok) return answer.result;
  const error = (answer && answer.error) || {};
  throw Object.assign(new Error(error.message || noAnswer), error);
}
