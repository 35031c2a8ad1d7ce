// Renders the table's sentences for tests/site/test_i18n_approved.py (not a unit test of its own):
// reads {catalogs: {pl: "<the /jsi18n/ script>", ...}, cases: [{language, view, events, standin}]}
// on stdin and prints one rendered line per case as JSON, with the page's real modules and the
// site's real catalog (docs/i18n.md, approved texts).
import vm from "node:vm";

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
  out.push(item.standin === undefined || item.standin === null
    ? describeEvents(item.view, item.events)
    : describeStandin(item.view, item.standin, item.events));
}
process.stdout.write(JSON.stringify(out));
