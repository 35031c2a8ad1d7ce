// ESLint's flat config (`make lint`, the pre-commit hook): the recommended rules over the site's
// browser JavaScript, its unit tests and this file. Pinned in package.json, installed by `make npm`.
import js from "@eslint/js";
import globals from "globals";

// templates/games/practice_sw.js is a Django template: `{{ config|safe }}` becomes a JSON object
// when the view renders it. Linted with each `{{ … }}` read as `null` (padded to the same length,
// so that lines and columns stay those of the file).
const djangoTemplate = {
  meta: { name: "django-template" },
  preprocess(text) {
    return [text.replace(/\{\{[^}]*\}\}/g, (tag) => "null".padEnd(tag.length))];
  },
  postprocess(messages) {
    return messages.flat();
  },
  supportsAutofix: false,
};

export default [
  { ignores: ["node_modules/", "staticfiles/", "build/", ".venv/"] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A parameter kept for its position (`(_, index) => …`) says so with a leading underscore.
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // The pages' ES modules.
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // Practice's Web Worker: a classic script (importScripts loads Pyodide into it).
    files: ["static/js/practice/worker.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.worker } },
  },
  {
    // Practice's service worker, a classic script written by a template.
    files: ["templates/games/practice_sw.js"],
    processor: djangoTemplate,
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    // The unit tests of the pure modules (tests/js/, `node --test`), the practice build's Node
    // script (games/practice/bytecode.mjs) and this file.
    files: ["tests/js/**/*.js", "tests/js/**/*.mjs", "games/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
