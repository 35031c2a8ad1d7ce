// Practice offline (docs/practice.md): the engine's large files kept in the browser's cache with
// the download's progress, the service worker that keeps the page, and the page's install button.

import { t } from "../i18n.js";

/** @param {string} id */
const $ = (id) => /** @type {any} */ (document.getElementById(id));
const page = /** @type {HTMLElement} */ (document.getElementById("practice"));

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}

/**
 * Fetch the large files into the browser's cache once, showing how far the download is.
 * @param {PracticeDownload[]} files
 * @param {(text: string) => void} setStep says what the page is doing
 * @param {Record<string, number>} timings `downloaded` is set once they are all kept
 */
export async function keepFiles(files, setStep, timings) {
  if (!("caches" in self)) return; // no Cache Storage (an insecure origin): plain HTTP caching
  const total = files.reduce((sum, file) => sum + file.size, 0);
  let done = 0;
  const missing = [];
  const found = await Promise.all(
    files.map(async (file) => {
      const cache = await caches.open(file.cache);
      return { ...file, cache, kept: Boolean(await cache.match(file.url)) };
    }),
  );
  for (const file of found) {
    if (file.kept) done += file.size;
    else missing.push(file);
  }
  if (!missing.length) return;
  const bar = $("practice-progress");
  const text = $("practice-progress-text");
  $("practice-download").hidden = false;
  const show = () => {
    bar.max = total;
    bar.value = Math.min(done, total);
    text.textContent = t("Downloading the engine: %(done)s of %(total)s MB", { done: megabytes(done), total: megabytes(total) });
  };
  show();
  setStep(t("Downloading the engine for offline play (once)…"));
  for (const file of missing) {
    const response = await fetch(file.url, { cache: "no-cache" });
    if (!response.ok || !response.body) throw new Error(`${file.url}: ${response.status}`);
    const reader = response.body.getReader();
    const chunks = [];
    let got = 0;
    for (;;) {
      const { done: finished, value } = await reader.read();
      if (finished) break;
      chunks.push(value);
      got += value.length;
      done += value.length;
      show();
    }
    done += Math.max(0, file.size - got);
    const type = response.headers.get("Content-Type") || "application/octet-stream";
    await file.cache.put(file.url, new Response(new Blob(chunks, { type }), { headers: { "Content-Type": type } }));
    show();
  }
  timings.downloaded = performance.now();
}

/** @param {PracticeConfig} config */
export async function registerServiceWorker(config) {
  if (!("serviceWorker" in navigator)) return null;
  try {
    await navigator.serviceWorker.register(config.sw, { scope: config.scope });
    return await navigator.serviceWorker.ready;
  } catch {
    return null; // practice still plays while online
  }
}

/**
 * Say so once the page, the engine and the bots are all on the device.
 * @param {ServiceWorkerRegistration | null} registration
 * @param {PracticeConfig} config
 */
export async function markOffline(registration, config) {
  if (!registration || !("caches" in self)) return;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => {
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
      setTimeout(resolve, 10000);
    });
  }
  for (const file of config.downloads) {
    if (!(await caches.match(file.url))) return;
  }
  const kept = await caches.open(config.caches.app);
  for (const url of config.precache) {
    if (!(await kept.match(url, { ignoreVary: true }))) return;
  }
  $("practice-offline").hidden = false;
  page.dataset.offline = "ready";
}

/** Offer to install the page as an app when the browser says it may (its install prompt). */
export function offerInstall() {
  /** @type {any} the browser's BeforeInstallPromptEvent (not in TypeScript's DOM types) */
  let installPrompt = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    installPrompt = event;
    $("practice-install").hidden = false;
  });
  $("practice-install").addEventListener("click", async () => {
    if (!installPrompt) return;
    installPrompt.prompt();
    await installPrompt.userChoice.catch(() => null);
    installPrompt = null;
    $("practice-install").hidden = true;
  });
}
