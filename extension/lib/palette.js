/**
 * The highlight palette: colour names in menu order, the default colour, and each colour's
 * background. The same vector as tests/shared/palette.json (and papershelf.domain.palette on the
 * server), held to it by tests/extension/palette.test.js; content/page.css paints marks with
 * these backgrounds and is held to them by the same test.
 */

export const DEFAULT_COLOR = "yellow";

export const PALETTE = Object.freeze([
  Object.freeze({ name: "yellow", background: "#fde68a" }),
  Object.freeze({ name: "green", background: "#bbf7d0" }),
  Object.freeze({ name: "blue", background: "#bfdbfe" }),
  Object.freeze({ name: "pink", background: "#fbcfe8" }),
  Object.freeze({ name: "purple", background: "#ddd6fe" }),
]);

/** The background of colour `name`; an unknown name is shown in the default colour. */
export function backgroundOf(name) {
  const color = PALETTE.find((c) => c.name === name) || PALETTE.find((c) => c.name === DEFAULT_COLOR);
  return color.background;
}
