// Turn alerts: the title, the icon, a sound (if chosen) and a vibration on phones when the
// seat's turn starts and when its clock is about to run out; and the clock's tick, which
// updates the timer's text without rebuilding the page.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { facts, formatSeconds, timerText } from "./render.js";
import { audioContext, model, pausedSeen, render, root, setAudioContext, setPausedSeen } from "./state.js";

const baseTitle = document.title;
const CLOCK_WARNING_S = 10;

function iconUrl(fill, mark) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="8" y="3" width="48" height="58" rx="7" fill="${fill}" stroke="#1f5f46" stroke-width="5"/><text x="32" y="45" font-size="34" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="${mark}">R</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const ICONS = { idle: iconUrl("#ffffff", "#1f5f46"), turn: iconUrl("#ffd54a", "#b3261e"), clock: iconUrl("#b3261e", "#ffffff") };

function setIcon(name) {
  let link = /** @type {HTMLLinkElement | null} */ (document.getElementById("table-icon"));
  if (!link) {
    for (const other of document.querySelectorAll('link[rel~="icon"]')) other.remove();
    link = /** @type {HTMLLinkElement} */ (h("link", { rel: "icon", id: "table-icon", type: "image/svg+xml" }));
    document.head.append(link);
  }
  if (link.dataset.state !== name) {
    link.dataset.state = name;
    link.href = ICONS[name];
  }
}

/** @param {boolean} high */
function beep(high) {
  if (!model.prefs.sound) return;
  try {
    // Made at the first beep, then reused (a page may make only a few).
    const audio = audioContext() || setAudioContext(new (window.AudioContext || /** @type {typeof AudioContext} */ (window.webkitAudioContext))());
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = high ? 880 : 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch {
    // no sound here
  }
}

function buzz(pattern) {
  if (!navigator.vibrate || !window.matchMedia || !window.matchMedia("(pointer: coarse)").matches) return;
  // Browsers refuse (and complain) before the player has touched the page.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    navigator.vibrate(pattern);
  } catch {
    // no vibration here
  }
}

/** Tell the player their turn has started, and that their clock is about to run out. */
export function turnAlert(f) {
  const mine = f.myTurn && !f.paused && f.seated;
  const left = mine && f.clock && f.clock.turn_seconds && f.clock.turn_started
    ? f.clock.turn_seconds - (f.now - f.clock.turn_started) / 1000
    : Infinity;
  let state = "idle";
  if (mine) state = left <= CLOCK_WARNING_S ? "clock" : "turn";
  const turnKey = mine ? `${f.view.round}:${f.clock ? f.clock.turn_started : ""}:${model.frame.view.turn}` : "";
  if (state !== "idle" && model.alertedTurn !== turnKey) {
    model.alertedTurn = turnKey;
    model.alerts = [...model.alerts, "turn"];
    beep(false);
    buzz(200);
  }
  if (state === "clock" && model.warnedTurn !== turnKey) {
    model.warnedTurn = turnKey;
    model.alerts = [...model.alerts, "clock"];
    beep(true);
    buzz([120, 80, 120]);
  }
  if (!mine) model.alertedTurn = "";
  root.dataset.alert = state === "idle" ? "" : state;
  setIcon(state);
  const title = state === "clock" ? `⏰ ${t("Your turn")} · ${baseTitle}` : state === "turn" ? `● ${t("Your turn")} · ${baseTitle}` : baseTitle;
  if (document.title !== title) document.title = title;
}

// Only the clock changes between frames: update its text without rebuilding the page.

// Only the clock changes between frames: update its text without rebuilding the page.
export function startClock() {
  setPausedSeen(facts(model).paused);
  setInterval(tick, 250);
}

function tick() {
  const f = facts(model);
  if (f.paused !== pausedSeen()) {
    setPausedSeen(f.paused);
    render();
    return;
  }
  const timer = document.getElementById("turn-timer");
  if (timer) {
    const text = timerText(model, f);
    if (timer.textContent !== text) timer.textContent = text;
    const left = f.clock && f.clock.turn_seconds ? f.clock.turn_seconds - (f.now - f.clock.turn_started) / 1000 : Infinity;
    timer.classList.toggle("urgent", left <= 10);
  }
  turnAlert(f);
  const pause = document.getElementById("pause-countdown");
  if (pause && f.paused) pause.textContent = formatSeconds((f.clock.resume_at - f.now) / 1000);
}
