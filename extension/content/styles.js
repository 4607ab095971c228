/** Styles of the notes panel and the highlight toolbar (inside open shadow roots, so that the
 * page's CSS cannot break them and they cannot break the page). Colours are quiet; highlight
 * colours come from lib/palette.js. */

import { DEFAULT_COLOR, backgroundOf } from "../lib/palette.js";

/** The notes panel, in its own open shadow root (opened on demand). The Save/Note bar itself is
 * light DOM styled by content/page.css, which is cheaper for pages of hundreds of cards. */
export const PANEL_CSS = `
:host { all: initial; display: block; font: 12px/1.4 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #374151; }
button { font: inherit; font-size: 12px; line-height: 18px; border: 1px solid #d1d5db; border-radius: 6px; padding: 2px 10px; background: #fff; color: #111827; cursor: pointer; }
button:hover { background: #f9fafb; }
button:focus-visible { outline: 2px solid #2563eb; outline-offset: 1px; }
button:disabled { opacity: .6; cursor: default; }
.panel { margin-top: 8px; padding: 8px; border: 1px solid #e5e7eb; border-radius: 8px; background: #fcfcfd; display: flex; flex-direction: column; gap: 6px; }
.notes { margin: 0; padding: 0 0 0 16px; max-height: 160px; overflow: auto; }
.notes li { margin: 4px 0; }
[data-papershelf-note-body] { white-space: pre-wrap; word-break: break-word; }
button.small { font-size: 11px; line-height: 14px; padding: 0 6px; margin-left: 4px; color: #4b5563; }
.orphans-title { font-weight: 600; color: #92400e; }
.orphan q { font-style: italic; }
.orphan .comment { color: #6b7280; }
textarea { box-sizing: border-box; width: 100%; font: inherit; font-size: 12px; border: 1px solid #d1d5db; border-radius: 6px; padding: 4px 6px; resize: vertical; background: #fff; color: #111827; }
.row { display: flex; gap: 8px; align-items: center; }
.msg { color: #6b7280; }
`;

export const TOOLBAR_CSS = `
:host { all: initial; }
:host([hidden]) { display: none; }
.tb { display: flex; align-items: center; gap: 6px; padding: 6px 8px; background: #111827; color: #fff; border-radius: 8px; box-shadow: 0 4px 14px rgba(0,0,0,.18); font: 12px/1.3 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
.colors { display: flex; gap: 4px; }
.swatch { width: 16px; height: 16px; border-radius: 50%; border: 2px solid transparent; padding: 0; cursor: pointer; }
.swatch[aria-checked="true"] { border-color: #fff; }
.comment { width: 150px; font: inherit; border: 0; border-radius: 4px; padding: 3px 6px; }
button[data-papershelf-action] { font: inherit; border: 0; border-radius: 5px; padding: 3px 10px; background: ${backgroundOf(DEFAULT_COLOR)}; color: #111827; cursor: pointer; font-weight: 600; }
`;
