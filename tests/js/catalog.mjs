// Shared by the render_*.mjs scripts: reads {catalogs, cases} JSON on stdin and loads a language's
// /jsi18n/ catalog into the global scope, as the page does.
import vm from "node:vm";

export async function readInput() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export function catalogLoader(catalogs) {
  globalThis.window = globalThis;
  let loaded = null;
  return (language) => {
    if (loaded === language) return;
    delete globalThis.django;
    for (const name of ["gettext", "ngettext", "pgettext", "npgettext", "interpolate", "pluralidx"]) delete globalThis[name];
    vm.runInThisContext(catalogs[language]);
    globalThis.document = { documentElement: { lang: language } };
    loaded = language;
  };
}
