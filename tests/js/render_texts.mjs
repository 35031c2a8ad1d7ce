// Renders the table's sentences for tests/site/test_i18n_approved.py (not a unit test of its own):
// reads {catalogs: {pl: "<the /jsi18n/ script>", ...}, cases: [{language, view, events, standin} or
// {language, view, line}]}
// on stdin and prints one rendered line per case as JSON, with the page's real modules and the
// site's real catalog (docs/i18n.md, approved texts).
import vm from "node:vm";

import { lineDetail } from "../../static/js/table/families/index.js";
import { noteRules } from "../../static/js/table/notes.js";
import { describeEvents, describeStandin } from "../../static/js/table/render.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { catalogs, cases } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

globalThis.window = globalThis;
const out = [];
let loaded = null;
for (const item of cases) {
  if (loaded !== item.language) {
    delete globalThis.django;
    for (const name of ["gettext", "ngettext", "pgettext", "npgettext", "interpolate", "pluralidx"]) delete globalThis[name];
    vm.runInThisContext(catalogs[item.language]);
    globalThis.document = { documentElement: { lang: item.language } };
    loaded = item.language;
  }
  if (item.line) {
    // A score line as the scores drawer says it, and the rule ids of its tag.
    const rules = (item.line.notes || []).flatMap(noteRules);
    out.push(`${lineDetail(item.view, item.line)}${rules.length ? ` [${rules.join(", ")}]` : ""}`);
  } else if (item.standin === undefined || item.standin === null) {
    out.push(describeEvents(item.view, item.events));
  } else {
    out.push(describeStandin(item.view, item.standin, item.events));
  }
}
process.stdout.write(JSON.stringify(out));
