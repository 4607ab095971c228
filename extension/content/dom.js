/**
 * What the content roles share about the page's DOM: the attributes that mark our elements (the
 * hooks tests drive), el() to build an element (text only ever as
 * textContent, never parsed as HTML), styles for our open shadow roots, and keeping our keys
 * from the page's shortcuts.
 */

export const UI_ATTR = "data-papershelf-ui";
export const PAPER_ATTR = "data-papershelf-paper";
export const ACTION_ATTR = "data-papershelf-action";
export const HIGHLIGHT_ATTR = "data-papershelf-highlight";

export function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

// One constructed sheet per stylesheet, shared by every shadow root that uses it.
const sheets = new Map();

function makeSheet(css) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  } catch {
    return null; // no constructable stylesheets: a <style> per root instead
  }
}

function sheetFor(css) {
  if (!sheets.has(css)) sheets.set(css, makeSheet(css));
  return sheets.get(css);
}

/** Style a shadow root with `css`. */
export function adoptStyles(root, css) {
  const sheet = sheetFor(css);
  if (sheet && "adoptedStyleSheets" in root) root.adoptedStyleSheets = [sheet];
  else root.appendChild(el("style", {}, css));
}

function stopPropagation(ev) {
  ev.stopPropagation();
}

/** Keys typed in our controls are ours, not the page's shortcuts (J, K, S, Enter). */
export function keepKeysFromPage(node) {
  for (const type of ["keydown", "keyup", "keypress"]) node.addEventListener(type, stopPropagation);
}
