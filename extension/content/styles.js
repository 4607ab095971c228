/** Styles of the highlight toolbar (inside an open shadow root, so that the page's CSS cannot
 * break it and it cannot break the page). Colours are quiet; highlight colours come from
 * lib/palette.js. The Save/Note bar is light DOM styled by content/page.css, which is cheaper for
 * pages of hundreds of cards; the notes panel is an extension page (panel/panel.css). */

import { DEFAULT_COLOR, backgroundOf } from "../lib/palette.js";

export const TOOLBAR_CSS = `
:host { all: initial; }
:host([hidden]) { display: none; }
.tb { display: flex; align-items: center; gap: 6px; padding: 6px 8px; background: #111827; color: #fff; border-radius: 8px; box-shadow: 0 4px 14px rgba(0,0,0,.18); font: 12px/1.3 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
.colors { display: flex; gap: 4px; }
.swatch { width: 16px; height: 16px; border-radius: 50%; border: 2px solid transparent; padding: 0; cursor: pointer; }
.swatch[aria-checked="true"] { border-color: #fff; }
.swatch:focus-visible, button[data-papershelf-action]:focus-visible { outline: 2px solid #93c5fd; outline-offset: 1px; }
button[data-papershelf-action] { font: inherit; border: 0; border-radius: 5px; padding: 3px 10px; background: ${backgroundOf(DEFAULT_COLOR)}; color: #111827; cursor: pointer; font-weight: 600; }
button[data-papershelf-action].secondary { background: #374151; color: #fff; font-weight: 500; }
`;
