/**
 * The messages between the extension's parts, declared in one table (as Zotero's connectors
 * declare theirs). A message is `{type, payload}`; the worker answers `{ok: true, result}` or
 * `{ok: false, error: {message, code, status}}`. Every sender and the worker's router use these
 * constants: no other file spells a message type.
 */

export const MessageType = Object.freeze({
  // A page's content script asks the worker, on its port (PORT_NAME).
  LOOKUP: "lookup", // {keys} → {papers: {key: paper}, queued: [key]}
  SAVE: "save", // {key, paper} → {status: "sent", paper} | {status: "queued", client_id}
  NOTE: "note", // {key, paper_id, paper, body} → {status, note | client_id, paper?}
  HIGHLIGHT: "highlight", // {key, paper_id, paper, highlight} → {status, highlight | client_id, paper?}
  UPDATE_NOTE: "update-note", // {id, body} → the note
  DELETE_NOTE: "delete-note", // {id} → {}

  // The popup asks the worker.
  STATUS: "status", // {} → {configured, serverUrl, recent, queued, failed}
  SAVE_PAGE: "save-page", // {} → {status, …}: the paper the active tab shows
  FLUSH: "flush", // {} → {sent, remaining}
  EXPORT: "export", // {format} → {text, filename, type}

  // The options page asks the worker.
  TEST_CONNECTION: "test-connection", // {serverUrl, token} → {ok, kind, message, version?}

  // The worker tells a page's content script (chrome.tabs.sendMessage); it answers {ok}.
  REFRESH: "refresh", // look the page's papers up again (something queued was sent)
  SAVE_FOCUSED: "save-focused", // save the paper the reader is on (the keyboard command)
});

/** The name of the port a page's content script keeps open to the worker. */
export const PORT_NAME = "papershelf";

/** The worker's answer → its result. An error answer, or none, throws (with its code and status). */
export function resultOf(answer, noAnswer = "papershelf extension unavailable") {
  if (answer && answer.ok) return answer.result;
  const error = (answer && answer.error) || {};
  throw Object.assign(new Error(error.message || noAnswer), error);
}
