// The service worker of practice offline (docs/practice.md), written by games/practice/views.py.
// Scope: /practice/ (the page and its worker, /practice/worker.js).
//
// It keeps two caches: the app's (this version's page, worker, modules, styles, icons, manifest,
// catalog and engine archive) and Pyodide's (named by its version: a new engine does not fetch
// Pyodide again). Installing stores the small files; the page stores the large ones itself, with
// a progress bar. Activating drops every other remi-practice-* cache: a new version replaces the
// old one on the next online visit, and the old engine is gone.
//
// Requests: the files kept are answered from the cache; the page, its catalog and its manifest
// are asked of the network first while online (they follow the language and the account), from
// the cache when offline. While the browser says it is offline nothing goes to the network at all.

const CONFIG = {{ config|safe }};
const KEEP = Object.values(CONFIG.caches);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CONFIG.caches.app);
      await cache.addAll(CONFIG.precache.map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("remi-practice-") && !KEEP.includes(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "version" && event.ports[0]) event.ports[0].postMessage(CONFIG.version);
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const fresh = request.mode === "navigate" || CONFIG.fresh.includes(url.pathname);
  event.respondWith(fresh ? networkFirst(request, url) : cacheFirst(request));
});

async function cacheFirst(request) {
  const hit = await caches.match(request, { ignoreVary: true });
  if (hit) return hit;
  if (!self.navigator.onLine) return Response.error();
  return fetch(request);
}

async function networkFirst(request, url) {
  const key = url.origin + url.pathname; // one copy per page, whatever its query
  if (self.navigator.onLine) {
    try {
      const response = await fetch(request);
      if (response.ok && response.type === "basic") {
        const cache = await caches.open(CONFIG.caches.app);
        await cache.put(key, response.clone());
      }
      return response;
    } catch {
      // the network failed: the copy kept below
    }
  }
  const kept = await caches.match(key, { ignoreVary: true, ignoreSearch: true });
  return kept || Response.error();
}
