// The page's side of the practice worker (worker.js): start it, load the engine, call it.
// Every call returns a promise of games.practice.game.call's answer: {ok, record, bot} or {error}.

export class PracticeEngine {
  /** @param {string} workerUrl /practice/worker.js (inside the service worker's scope) */
  constructor(workerUrl) {
    this.worker = new Worker(workerUrl);
    this.next = 1;
    this.waiting = new Map();
    // Whether the worker keeps a memory snapshot of the engine for the next load (worker.js):
    // {kept, warmMs, snapshotMs, snapshotBytes}.
    this.snapshotKept = new Promise((resolve) => (this.keptSnapshot = resolve));
    this.worker.onmessage = (event) => {
      const { id, answer, failed, snapshotKept } = event.data || {};
      if (snapshotKept !== undefined) this.keptSnapshot(snapshotKept);
      const entry = this.waiting.get(id);
      if (!entry) return;
      this.waiting.delete(id);
      if (failed !== undefined) entry.reject(new Error(failed));
      else entry.resolve(answer);
    };
    this.worker.onerror = (event) => {
      for (const entry of this.waiting.values()) entry.reject(new Error(event.message || "worker error"));
      this.waiting.clear();
    };
  }

  call(name, args) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, call: name, args });
    });
  }

  /**
   * Load Pyodide and the engine archive, or restore the snapshot of both kept by an earlier load
   * (`snapshot`: {cache, url} where the worker keeps it; null: none): {python, snapshot, loadMs, readyMs}.
   * @param {string} indexURL
   * @param {string} archiveURL
   * @param {{cache: string, url: string} | null} [snapshot]
   */
  async init(indexURL, archiveURL, snapshot = null) {
    const answer = await this.call("init", { indexURL, archiveURL, snapshot });
    return answer.ok;
  }
}
