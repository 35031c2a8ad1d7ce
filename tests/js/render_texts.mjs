// Renders the table's sentences for tests/site/test_i18n_approved.py (not a unit test of its own):
// reads {catalogs: {pl: "<the /jsi18n/ script>", ...}, cases: [{language, view, events, standin} or
// {language, view, line}]}
// on stdin and prints one rendered line per case as JSON, with the page's real modules and the
// site's real catalog (docs/i18n.md, approved texts).
import { lineDetail } from "../../static/js/table/families/index.js";
import { noteRules } from "../../static/js/table/notes.js";
import { describeEvents, describeStandin } from "../../static/js/table/events.js";
import { catalogLoader, readInput } from "./catalog.mjs";

const { catalogs, cases } = await readInput();
const load = catalogLoader(catalogs);
const out = [];
for (const item of cases) {
  load(item.language);
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
