// A note being written on the paper page, previewed as it will show: rendered by markdown.js,
// the extension's own lib/markdown.js (a link in the package), which builds the same DOM as the
// server's renderer (render.py) and is the notes panel's renderer too. Delegated, so that it
// survives the page's refresh().

import { renderMarkdown } from "./markdown.js";

const AREAS = 'form[data-form="note"] textarea[name="body"], form[data-form="note-edit"] textarea[name="body"]';

function previewOf(area) {
  let box = area.parentElement.querySelector(":scope > [data-note-preview]");
  if (!box) {
    box = document.createElement("div");
    box.className = "markdown note-preview"; // not a saved note's .note-body
    box.setAttribute("data-note-preview", "");
    box.setAttribute("aria-label", "Preview");
    box.setAttribute("role", "region");
    area.after(box);
  }
  return box;
}

document.addEventListener("input", (event) => {
  const area = event.target.closest && event.target.closest(AREAS);
  if (!area) return;
  const box = previewOf(area);
  box.hidden = !area.value.trim();
  box.replaceChildren(renderMarkdown(area.value));
});
