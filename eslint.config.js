// ESLint for the extension (browser + webextensions globals) and its node tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/**", "tests/fixtures/**", "extension/vendor/**", "extension/lib/markdown-it.min.js", "server/papershelf/web/static/markdown-it.min.js"] }, // vendor: pdfjs-dist and markdown-it as published
  js.configs.recommended,
  {
    files: ["extension/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.webextensions },
    },
  },
  {
    // The library page's script (served by the papershelf server, no build step).
    files: ["server/papershelf/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["extension/content/loader.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["tests/extension/**/*.js", "scripts/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "smart"],
    },
  },
];
