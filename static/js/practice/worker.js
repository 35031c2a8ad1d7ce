// The practice worker: CPython (Pyodide) runs the rules engine and its bots, here, off the page's
// thread (docs/practice.md). Everything about the game is decided by games/practice/game.py; this file
// only loads Python and carries JSON both ways.
//
// The page serves this file as /practice/worker.js, inside the service worker's scope, so that
// every file it loads (Pyodide, the engine archive) comes from the practice cache when offline.
//
// Starting Python is most of a load (the interpreter's own start-up, then the engine's import),
// so the first load keeps a memory snapshot of it: Pyodide's heap once the engine and its bots
// are imported, before any game or language (Pyodide's experimental makeMemorySnapshot), made
// right after the answer to init is posted, before any other message is read. Later
// loads restore that instead of starting Python again. The snapshot is kept in the app's cache
// under a name of this version (engine archive and Pyodide), so a new engine or a new Pyodide
// never restores an old one (the service worker drops the old version's cache with it); one
// that cannot be restored is deleted and Python starts as on the first load.
//
// Messages in: {id, call: "init", args: {indexURL, archiveURL, snapshot: {cache, url} | null}}
// first, then {id, call, args} with a call of games.practice.game.call ("start", "resume",
// "command", "bot", "take_back", "hint", "rack", "frame", "frame_of_record"). Messages out:
// {id, answer} (the JSON answer, parsed) or {id, failed: message} when Python itself could not run.

let practice = null; // games.practice.game.call, once loaded
const MODULE = "games.practice.game"; // a name, not a literal: collectstatic reads pyimport of a literal as a file
// The engine archive is imported as it is (zipimport), from the same path at every load: a
// restored snapshot's import system expects it there.
const ARCHIVE_PATH = "/home/pyodide/remi-engine.zip";
const started = performance.now(); // the worker's script ran

async function keptSnapshot(snapshot) {
  if (!snapshot || !self.caches) return null;
  try {
    const hit = await (await caches.open(snapshot.cache)).match(snapshot.url);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function keepSnapshot(snapshot, bytes) {
  try {
    const cache = await caches.open(snapshot.cache);
    const headers = { "Content-Type": "application/octet-stream" };
    await cache.put(snapshot.url, new Response(bytes, { headers }));
    return true;
  } catch {
    return false; // no room: the next load starts Python again, and tries again
  }
}

async function forgetSnapshot(snapshot) {
  try {
    await (await caches.open(snapshot.cache)).delete(snapshot.url);
  } catch {
    // nothing kept
  }
}

async function init({ indexURL, archiveURL, snapshot = null }) {
  const began = performance.now();
  importScripts(`${indexURL}pyodide.js`);
  const archiveBytes = fetch(archiveURL).then((response) => {
    if (!response.ok) throw new Error(`${archiveURL}: ${response.status}`);
    return response.arrayBuffer();
  });
  const canKeep = Boolean(snapshot && self.caches);
  const kept = await keptSnapshot(snapshot);
  let pyodide = null;
  let how = "started";
  if (kept) {
    try {
      pyodide = await self.loadPyodide({ indexURL, _loadSnapshot: kept });
      how = "restored";
    } catch {
      await forgetSnapshot(snapshot);
    }
  }
  if (!pyodide) pyodide = await self.loadPyodide({ indexURL, _makeSnapshot: canKeep });
  const loaded = performance.now();
  pyodide.FS.writeFile(ARCHIVE_PATH, new Uint8Array(await archiveBytes));
  const steps = {};
  if (how !== "restored") {
    pyodide.runPython(`__import__('sys').path.insert(0, ${JSON.stringify(ARCHIVE_PATH)})`);
    pyodide.pyimport(MODULE);
    steps.importMs = Math.round(performance.now() - loaded);
  }
  practice = pyodide.pyimport(MODULE).call;
  const version = pyodide.runPython("__import__('sys').version.split()[0]");
  const ready = performance.now();
  const answer = {
    python: version,
    snapshot: how === "started" && canKeep ? "made" : how, // "restored", "made" (started, and kept) or "started"
    ...steps,
    workerMs: Math.round(began - started), // the worker waited for init
    loadMs: Math.round(loaded - began), // pyodide.js and loadPyodide: the interpreter, started or restored
    readyMs: Math.round(ready - began), // and the engine imported (or found in the snapshot)
  };
  /**
   * Run at once after the answer is posted, before any other message: the bots imported and, when
   * Python was started here, the snapshot made (so it holds no call of the page) and stored.
   */
  const keep = () => {
    if (how === "restored") return Promise.resolve({ kept: true });
    const began = performance.now();
    practice("warm"); // every level's bots imported: in the snapshot, and ready for the first move
    const after = { warmMs: Math.round(performance.now() - began) };
    if (!canKeep) return Promise.resolve({ kept: false, ...after });
    const bytes = pyodide.makeMemorySnapshot();
    after.snapshotMs = Math.round(performance.now() - began - after.warmMs);
    after.snapshotBytes = bytes.length;
    return keepSnapshot(snapshot, bytes).then((kept) => ({ kept, ...after }));
  };
  return { answer, keep };
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
      const { answer, keep } = await init(args);
      self.postMessage({ id, answer: { ok: answer } });
      let kept;
      try {
        kept = keep();
      } catch (/** @type {any} */ error) {
        kept = Promise.resolve({ kept: false, error: String(error && error.message ? error.message : error) });
      }
      kept.then((done) => self.postMessage({ snapshotKept: done }));
    } else if (!practice) {
      self.postMessage({ id, failed: "the engine is not loaded yet" });
    } else if (call === "warm") {
      self.postMessage({ id, answer: { ok: warm() } });
    } else {
      const text = practice(call, JSON.stringify(args === undefined ? null : args));
      self.postMessage({ id, answer: JSON.parse(text) });
    }
  } catch (/** @type {any} */ error) {
    self.postMessage({ id, failed: String(error && error.message ? error.message : error) });
  }
};
