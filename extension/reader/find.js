/**
 * Find in the PDF: every match of the words typed (case and whitespace folded) in the pages'
 * normalized texts, counted, stepped through (Enter, Shift+Enter, the arrows) and shown on the
 * rendered pages with the CSS Custom Highlight API: ranges over the text layer's own text nodes,
 * so that finding changes nothing in the DOM (painted highlights and their offsets stay as
 * they are).
 */

import { normalizeText, textModel } from "../lib/anchoring.js";

const HIGHLIGHT_NAME = "papershelf-find";
const CURRENT_NAME = "papershelf-find-current";

/** Lower case, one unit for one unit (so that offsets into the folded text are the text's). */
function fold(text) {
  let out = "";
  for (const c of text) {
    const lower = c.toLowerCase();
    out += lower.length === c.length ? lower : c;
  }
  return out;
}

/** Every match of `query` in `texts` (page texts): [{page, start, end}], in reading order. */
export function findAll(texts, query) {
  const q = fold(normalizeText(query));
  const out = [];
  if (!q) return out;
  texts.forEach((text, i) => {
    const t = fold(text);
    for (let at = t.indexOf(q); at !== -1; at = t.indexOf(q, at + 1)) out.push({ page: i + 1, start: at, end: at + q.length });
  });
  return out;
}

/** A DOM Range over [start, end) of a text layer's model, or null. */
function rangeIn(model, start, end) {
  if (start >= end || end > model.text.length) return null;
  const startNode = model.nodes[model.nodeOf[start]];
  const endNode = model.nodes[model.nodeOf[end - 1]];
  if (!startNode || !endNode || startNode.nodeType !== 3 || endNode.nodeType !== 3) return null;
  const range = document.createRange();
  range.setStart(startNode, model.offsetOf[start]);
  range.setEnd(endNode, Math.min(endNode.data.length, model.offsetOf[end - 1] + 1));
  return range;
}

/** The find bar's behaviour over `pages` (reader/pages.js). */
export function createFind(pages, { input, count, onGoTo }) {
  let matches = [];
  let current = -1;
  let query = "";

  function show() {
    if (typeof CSS === "undefined" || !CSS.highlights) return;
    const all = [];
    let currentRange = null;
    const models = new Map();
    matches.forEach((m, i) => {
      const layer = pages.layerOf(m.page);
      if (!layer) return;
      if (!models.has(m.page)) models.set(m.page, textModel(layer));
      const r = rangeIn(models.get(m.page), m.start, m.end);
      if (!r) return;
      if (i === current) currentRange = r;
      else all.push(r);
    });
    CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(...all));
    if (currentRange) CSS.highlights.set(CURRENT_NAME, new Highlight(currentRange));
    else CSS.highlights.delete(CURRENT_NAME);
  }

  function say() {
    if (!query) count.textContent = "";
    else if (!pages.view.texts) count.textContent = "…";
    else if (!matches.length) count.textContent = "No match";
    else count.textContent = `${current + 1} of ${matches.length}`;
  }

  function go(step) {
    if (!matches.length) return;
    current = (current + step + matches.length) % matches.length;
    onGoTo(matches[current]);
    show();
    say();
  }

  function search() {
    query = input.value;
    matches = pages.view.texts ? findAll(pages.view.texts, query) : [];
    const from = pages.view.current;
    current = matches.length ? Math.max(0, matches.findIndex((m) => m.page >= from)) : -1;
    if (current >= 0) onGoTo(matches[current]);
    show();
    say();
  }

  return {
    search,
    next: () => (input.value !== query ? search() : go(1)),
    previous: () => (input.value !== query ? search() : go(-1)),
    /** A page's text layer appeared, or the texts were read: show what is found there. */
    refresh() {
      if (query && !matches.length && pages.view.texts) return search();
      show();
      say();
    },
    clear() {
      input.value = "";
      query = "";
      matches = [];
      show();
      say();
    },
  };
}
