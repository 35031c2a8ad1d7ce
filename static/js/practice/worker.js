// The practice worker: CPython (Pyodide) runs the rules engine and its bots, here, off the page's
// thread (docs/practice.md). Everything about the game is decided by games/practice.py; this file
// only loads Python and carries JSON both ways.
//
// The page serves this file as /practice/worker.js, inside the service worker's scope, so that
// every file it loads (Pyodide, the engine archive) comes from the practice cache when offline.
//
// Messages in: {id, call: "init", args: {indexURL, archiveURL}} first, then {id, call, args} with
// a call of games.practice.call ("start", "resume", "command", "bot", "take_back", "hint", "rack",
// "frame", "frame_of_record"). Messages out: {id, answer} (the JSON answer, parsed) or
// {id, failed: message} when Python itself could not run.

let practice = null; // games.practice.call, once loaded
const MODULE = "games.practice"; // a name, not a literal: collectstatic reads pyimport of a literal as a file

async function init({ indexURL, archiveURL }) {
  const began = performance.now();
  importScripts(`${indexURL}pyodide.js`);
  const scripted = performance.now();
  const archiveBytes = fetch(archiveURL).then((response) => {
    if (!response.ok) throw new Error(`${archiveURL}: ${response.status}`);
    return response.arrayBuffer();
  });
  const pyodide = await self.loadPyodide({ indexURL });
  const loaded = performance.now();
  pyodide.unpackArchive(await archiveBytes, "zip", { extractDir: "/home/pyodide/remi" });
  pyodide.runPython("__import__('sys').path.insert(0, '/home/pyodide/remi')");
  practice = pyodide.pyimport(MODULE).call;
  const version = pyodide.runPython("__import__('sys').version.split()[0]");
  const ready = performance.now();
  return {
    python: version,
    scriptMs: Math.round(scripted - began), // pyodide.js
    loadMs: Math.round(loaded - began), // and loadPyodide: the WebAssembly module, the interpreter, the standard library
    readyMs: Math.round(ready - began), // and the engine archive unpacked, games.practice imported
  };
}

/** Import what the first bot move and the first hint would (the levels, every variant's rules). */
function warm() {
  const began = performance.now();
  practice("warm");
  return { ms: Math.round(performance.now() - began) };
}

self.onmessage = async (event) => {
  const { id, call, args } = event.data || {};
  try {
    if (call === "init") {
      self.postMessage({ id, answer: { ok: await init(args) } });
    } else if (!practice) {
      self.postMessage({ id, failed: "the engine is not loaded yet" });
    } else if (call === "warm") {
      self.postMessage({ id, answer: { ok: warm() } });
    } else {
      const text = practice(call, JSON.stringify(args === undefined ? null : args));
      self.postMessage({ id, answer: JSON.parse(text) });
    }
  } catch (error) {
    self.postMessage({ id, failed: String(error && error.message ? error.message : error) });
  }
};
