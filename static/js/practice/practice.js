// The practice page (/practice/, docs/practice.md): keep the files on the device, load the engine
// into a Web Worker, start or resume a game, and play it on the live table's modules (table/main.js)
// through a local connection (local.js). What only practice has lives here: the download bar,
// the hint, the take-back, the bots' hands at the end of a round, and the game record kept in
// this browser (localStorage: the record itself, remi-record/1, docs/record.md).

import { cardShort } from "../table/cards.js";
import { h, patch } from "../dom.js";
import { t, tn } from "../i18n.js";
import { PracticeEngine } from "./engine.js";
import { LocalConnection } from "./local.js";
import { keepFiles, markOffline, offerInstall, registerServiceWorker } from "./offline.js";

// The page's parts (templates/games/practice.html has every one of them).
/** @param {string} id */
const part = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @type {PracticeConfig} */
const config = JSON.parse(part("practice-config").textContent || "null");
const tableUrl = /** @type {string} */ (part("practice-script").dataset.table);
const page = part("practice");
/**
 * The page's element `id` (practice.html has every one of them).
 * @param {string} id
 * @returns {any} an HTMLElement of the kind practice.html makes it: a button, a select, a form…
 */
const $ = (id) => document.getElementById(id);

const GAME_KEY = "remi.practice.game"; // the record of the game on this device
const params = new URLSearchParams(location.search);
const delayParam = params.get("delay");
const BOT_DELAY_MS = delayParam !== null && /^\d+$/.test(delayParam) ? Number(delayParam) : 700;

// Milliseconds since the navigation began (performance.now()), read by `make bench-practice`:
// the module ran, the files were on the device, the engine answered, the page was playable.
const timings = { start: performance.now() };
const botTimes = []; // {seat, level, ms} of every bot move of this page
/**
 * The worker's engine is made first thing in boot(), before anything asks it; the connection,
 * once a game is played (its buttons are shown only then).
 * @type {{engine: PracticeEngine, connection: LocalConnection, record: any, mounted: boolean}}
 */
const state = { engine: /** @type {any} */ (null), connection: /** @type {any} */ (null), record: null, mounted: false };

function setStep(text) {
  $("practice-step").textContent = text;
}

function fail(text) {
  const box = $("practice-error");
  box.textContent = text;
  box.hidden = false;
  page.dataset.state = "failed";
}

// The page's install button (offline.js), offered as soon as the browser says it may.
offerInstall();

// --- the game on this device -------------------------------------------------------------------

function loadRecord() {
  try {
    const text = localStorage.getItem(GAME_KEY);
    const record = text ? JSON.parse(text) : null;
    return record && record.format === "remi-record/1" && record.practice ? record : null;
  } catch {
    return null;
  }
}

function saveRecord(record) {
  state.record = record;
  try {
    localStorage.setItem(GAME_KEY, JSON.stringify(record));
  } catch {
    // full or refused: the game goes on, it is not kept
  }
}

function forgetRecord() {
  if (state.connection) state.connection.stop();
  state.record = null;
  try {
    localStorage.removeItem(GAME_KEY);
  } catch {
    // nothing kept
  }
}

function downloadRecord() {
  const record = state.record || loadRecord();
  if (!record) return;
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
  const link = /** @type {HTMLAnchorElement} */ (h("a", {
    href: URL.createObjectURL(blob),
    download: `remi-practice-${record.variant}-${(record.match && record.match.started ? record.match.started : "game").slice(0, 10)}.json`,
  }));
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// --- choosing a game -----------------------------------------------------------------------------

const variantSelect = $("practice-variant");

/** @param {string} variant */
function fieldsetOf(variant) {
  return /** @type {HTMLFieldSetElement} */ (document.querySelector(`fieldset.practice-variant[data-variant="${CSS.escape(variant)}"]`));
}

function showVariant() {
  for (const set of /** @type {NodeListOf<HTMLFieldSetElement>} */ (document.querySelectorAll("fieldset.practice-variant"))) {
    const on = set.dataset.variant === variantSelect.value;
    set.hidden = !on;
    set.disabled = !on;
  }
  showLevels();
}

/** Only as many bot levels as there are bots. */
function showLevels() {
  const set = fieldsetOf(variantSelect.value);
  const seats = Number(/** @type {HTMLInputElement} */ (set.querySelector("[data-seats]")).value) || 2;
  for (const select of set.querySelectorAll("[data-level]")) {
    const field = /** @type {HTMLElement} */ (select.closest(".field") || select.parentElement);
    field.hidden = Number(select.dataset.level) >= seats;
  }
}

variantSelect.addEventListener("change", showVariant);
document.addEventListener("input", (event) => {
  if (event.target instanceof HTMLElement && event.target.matches("[data-seats]")) showLevels();
});

/** The options as the engine takes them, typed by the variant's option specs. */
function readSetup() {
  const variant = variantSelect.value;
  const set = fieldsetOf(variant);
  const specs = Object.fromEntries((config.specs[variant] || []).map((spec) => [spec.name, spec]));
  const seats = Number(/** @type {HTMLInputElement} */ (set.querySelector("[data-seats]")).value);
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (set.querySelectorAll("[data-option]"))) {
    const spec = specs[input.dataset.option || ""];
    if (!spec) continue;
    let value;
    if (spec.type === "bool") value = input.checked;
    else if (input.value === "") value = spec.nullable ? null : input.value;
    else if (spec.type === "int") value = Number(input.value);
    else value = input.value;
    options[spec.name] = value;
  }
  if (specs.max_players) options.max_players = seats;
  /** @type {(string | null)[]} */
  const levels = [null];
  const names = [config.player];
  for (let seat = 1; seat < seats; seat += 1) {
    const select = /** @type {HTMLSelectElement | null} */ (set.querySelector(`[data-level="${seat}"]`));
    levels.push(select ? select.value : "normal");
    names.push(config.bot_name.replace("%(number)s", String(seat + 1)));
  }
  return { variant, options, levels, names, started: new Date().toISOString() };
}

$("practice-setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("practice-setup-error");
  error.hidden = true;
  $("practice-start").disabled = true;
  const answer = await state.engine.call("start", readSetup());
  if (answer.error) {
    error.textContent = answer.error.message;
    error.hidden = false;
    $("practice-start").disabled = false;
    return;
  }
  saveRecord(answer.record);
  await play(answer);
});

// --- playing -------------------------------------------------------------------------------------

function seatName(frame, seat) {
  return frame.view.names[seat] || String(seat + 1);
}

function cardsText(cards) {
  return (cards || []).map(cardShort).join(" ");
}

/** The end of a round: every bot's hand as it was left, and the melds they laid. */
function showRoundEnd(frame) {
  const over = (frame.events || []).filter((e) => e.kind === "round_over").pop();
  if (!over) return;
  const matchOver = frame.view.phase === "over";
  $("practice-round-title").textContent = matchOver
    ? t("The match is over: the bots' hands at the end")
    : t("Round %(number)s is over: the bots' hands", { number: over.round });
  const items = [];
  for (let seat = 0; seat < frame.view.players; seat += 1) {
    if (seat === frame.view.seat) continue;
    const hand = (over.hands || [])[seat] || [];
    const melds = (over.melds || []).filter((m) => m.owner === seat).map((m) => m.cards);
    items.push(
      h("li", { "data-seat": String(seat) },
        h("strong", {}, `${seatName(frame, seat)}: `),
        hand.length ? h("span", { class: "practice-cards" }, cardsText(hand)) : t("nothing left"),
        melds.length ? h("span", { class: "aside" }, ` · ${t("melds")}: ${melds.map((m) => `[${cardsText(m)}]`).join(" ")}`) : null),
    );
  }
  patch($("practice-hands"), ...items);
  $("practice-next").hidden = matchOver;
  $("practice-round").hidden = false;
  page.dataset.roundOver = String(over.round);
}

$("practice-next").addEventListener("click", () => {
  $("practice-round").hidden = true;
  delete page.dataset.roundOver;
  state.connection.resumeBots();
});

function hintText(answer) {
  const move = answer.move;
  const why = answer.reason || {};
  const parts = [];
  const melds = (why.melds || []).map((m) => (m.points === null ? `[${cardsText(m.cards)}]` : `[${cardsText(m.cards)}] (${m.points})`));
  if (move.kind === "draw") parts.push(t("Draw from the stock."));
  else if (move.kind === "pass") parts.push(t("Pass: leave the face-up card."));
  else if (move.kind === "take") parts.push(move.card ? t("Take %(card)s from the discards.", { card: cardShort(move.card) }) : t("Take the top discard."));
  else if (move.kind === "discard") parts.push(t("Discard %(card)s.", { card: cardShort(move.card) }));
  else if (move.kind === "knock") parts.push(move.card ? t("Knock, discarding %(card)s.", { card: cardShort(move.card) }) : t("Knock."));
  else if (move.kind === "play") parts.push(t("Lay down."));
  if (melds.length) parts.push(t("Melds: %(melds)s, %(points)s points.", { melds: melds.join(" "), points: why.points }));
  if ((why.layoffs || []).length) parts.push(t("Add %(cards)s to the table's melds.", { cards: cardsText(why.layoffs.flatMap((l) => l.cards || [])) }));
  if (why.opening && why.opening.opens) parts.push(t("That opens: %(needed)s points needed.", { needed: why.opening.required_points }));
  else if (why.opening && melds.length) parts.push(t("Not enough to open: %(needed)s points needed.", { needed: why.opening.required_points }));
  if (why.deadwood_after !== undefined) parts.push(t("Loose points after it: %(points)s.", { points: why.deadwood_after }));
  if (why.ends_round) parts.push(t("It ends the round."));
  else if (why.hand_after !== undefined) parts.push(tn("%(n)s card left in your hand.", "%(n)s cards left in your hand.", why.hand_after));
  return parts.join(" ");
}

$("practice-hint-button").addEventListener("click", async () => {
  const box = $("practice-hint");
  const answer = await state.connection.hint();
  box.hidden = false;
  if (answer.error) {
    box.textContent = t("No hint now: it is not your turn.");
    box.dataset.move = "";
    return;
  }
  box.textContent = `${t("The hard bot would play:")} ${hintText(answer.ok)}`;
  box.dataset.move = JSON.stringify(answer.ok.move);
});

$("practice-take-back").addEventListener("click", async () => {
  $("practice-hint").hidden = true;
  $("practice-round").hidden = true;
  const answer = await state.connection.takeBack();
  if (answer && answer.error) {
    const box = $("practice-hint");
    box.hidden = false;
    box.textContent = t("Nothing of yours to take back.");
  }
});

$("practice-download-record").addEventListener("click", downloadRecord);

$("practice-abandon").addEventListener("click", () => {
  if (!window.confirm(t("Abandon this game? It is removed from this device."))) return;
  forgetRecord();
  location.reload();
});

$("practice-new").addEventListener("click", () => {
  forgetRecord();
  location.reload();
});

function onChange(frame) {
  $("practice-hint").hidden = true;
  const over = frame.view.phase === "over";
  $("practice-new").hidden = !over;
  $("practice-abandon").hidden = over;
  $("practice-hint-button").disabled = over;
  page.dataset.phase = frame.view.phase;
  page.dataset.version = String(frame.version);
  if ((frame.events || []).some((e) => e.kind === "round_over")) showRoundEnd(frame);
}

/** Mount the table on the game's first frame and let the bots play when it is their turn. */
async function play(answer) {
  const frame = answer.ok.frame;
  const connection = new LocalConnection(state.engine, {
    delay: BOT_DELAY_MS,
    onRecord: saveRecord,
    onBotMove: (move) => botTimes.push(move),
    onChange,
  });
  state.connection = connection;
  $("practice-setup").hidden = true;
  $("practice-game").hidden = false;
  window.remiTableHost = { frame, key: "practice", connection };
  await import(tableUrl);
  connection.frame = frame;
  onChange({ ...frame, events: [] });
  connection.absorb(answer);
  state.mounted = true;
  page.dataset.state = "playing";
  timings.playable = performance.now();
  state.engine.call("warm").catch(() => {});
}

// --- start ----------------------------------------------------------------------------------------

/** Where the worker keeps the snapshot of the started engine: in this version's app cache. */
function snapshotPlace() {
  if (!("caches" in self) || !config.caches) return null;
  const url = new URL(`${config.scope}snapshot-${config.archive}-pyodide-${config.pyodide}.bin`, location.href);
  return { cache: config.caches.app, url: url.href };
}

/** Whether an earlier load kept the started engine (then every file was on the device too). */
async function hasSnapshot(place) {
  try {
    return Boolean(place && (await (await caches.open(place.cache)).match(place.url)));
  } catch {
    return false;
  }
}

async function boot() {
  // The worker starts now (its thread, its script), while the files are looked for on the device.
  state.engine = new PracticeEngine(config.worker);
  if (loadRecord()) {
    // A game to resume: the table's modules (its folder's, as the service worker keeps them) are
    // fetched and compiled meanwhile, not run (play does that).
    const folder = tableUrl.slice(0, tableUrl.lastIndexOf("/") + 1);
    const modules = new Set([tableUrl, ...(config.precache || []).filter((url) => url.startsWith(folder) && url.endsWith(".js"))]);
    for (const href of modules) document.head.append(h("link", { rel: "modulepreload", href }));
  }
  state.engine.snapshotKept.then((kept) => {
    timings.snapshotKept = kept.kept ? performance.now() : false;
    timings.snapshotSteps = kept;
  });
  const place = snapshotPlace();
  const start = () => state.engine.init(config.index_url, config.archive_url, place);
  // With a snapshot kept, the engine is restored while the files are checked; otherwise it
  // starts once they are on the device (it would fetch them again while they download).
  const registration = registerServiceWorker(config);
  const started = (await hasSnapshot(place)) ? start() : null;
  started?.catch(() => {}); // its failure is told below, once the files are known to be there
  try {
    await keepFiles(config.downloads, setStep, timings);
  } catch (error) {
    if (!navigator.onLine) fail(t("The engine is not on this device yet: open this page once while online."));
    else fail(t("The engine could not be downloaded: %(error)s", { error: String(/** @type {Error} */ (error).message || error) }));
    return;
  }
  $("practice-download").hidden = true;
  setStep(t("Starting the engine…"));
  try {
    timings.engine = await (started || start());
  } catch (error) {
    fail(t("The engine could not start: %(error)s", { error: String(/** @type {Error} */ (error).message || error) }));
    return;
  }
  if (Object.keys(config.messages).length) await state.engine.call("language", config.messages);
  timings.engineReady = performance.now();
  registration.then((done) => markOffline(done, config));
  const saved = loadRecord();
  if (saved) {
    const answer = await state.engine.call("resume", saved);
    if (!answer.error) {
      setStep("");
      await play(answer);
      return;
    }
    fail(t("The game kept on this device could not be resumed: %(error)s", { error: answer.error.message }));
  }
  setStep("");
  $("practice-setup").hidden = false;
  $("practice-start").disabled = false;
  showVariant();
  page.dataset.state = "setup";
  timings.playable = performance.now();
}

window.remiPractice = { config, state, timings, botTimes, loadRecord };
boot();
