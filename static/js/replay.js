// The round replay (/matches/<id>/rounds/<n>/replay/). Steps through frames the server built
// with the engine; it decides nothing about the rules and shows only what each frame holds
// (hidden hands arrive as null). The page holds one page of frames (json_script
// "replay-frames", from data-first); the others are asked for a page at a time at
// data-frames-url (?step=N) as the replay reaches them (docs/record.md, "Replays").
// Without scripts the page still works: the buttons are links to ?step=N.

import { h, patch } from "./dom.js";

// Django's JavaScript catalog when the page loads it; English otherwise.
const t = (msgid, values) => {
  const text = typeof window.gettext === "function" ? window.gettext(msgid) : msgid;
  return values ? String(text).replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole)) : text;
};
const tn = (singular, plural, n) => {
  const text = typeof window.ngettext === "function" ? window.ngettext(singular, plural, n) : n === 1 ? singular : plural;
  return String(text).replace(/%\(n\)s/g, String(n));
};

const root = /** @type {HTMLElement} */ (document.getElementById("replay")); // templates/games/replay.html
const frames = new Map();
function keep(first, list) {
  list.forEach((frame, offset) => frames.set(first + offset, frame));
}
keep(Number(root.dataset.first) || 0, JSON.parse(/** @type {HTMLElement} */ (document.getElementById("replay-frames")).textContent || "[]"));
const last = Number(root.dataset.last);
let step = Math.min(Math.max(Number(root.dataset.step) || 0, 0), last);
let asking = null;

// The page of frames holding `target`, from the server; a refusal (too many pages asked for:
// replay_rate_limited) is shown with the server's text, in the page's language.
async function fetchPage(target) {
  const url = new URL(/** @type {string} */ (root.dataset.framesUrl), window.location.href);
  url.searchParams.set("step", String(target));
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const data = await response.json();
  if (!response.ok) throw data;
  keep(data.first, data.frames);
}

/**
 * The page's element `id` (replay.html has every one of them).
 * @param {string} id
 * @returns {any} an HTMLElement of the kind replay.html makes it: a link, a button…
 */
const el = (id) => document.getElementById(id);

function card(c) {
  return h("span", { class: `replay-card${c.red ? " red" : ""}${c.joker ? " joker" : ""}`, "data-card": c.id }, c.label);
}

function render() {
  const frame = frames.get(step);
  root.dataset.step = String(step);
  el("replay-position").textContent = t("Move %(step)s of %(last)s", { step, last });
  el("replay-move").textContent = frame.move ? `${frame.move.name}: ${frame.move.text}` : t("The deal.");
  patch(
    el("replay-stock"),
    t("Stock:"), " ", h("strong", {}, String(frame.stock)),
    frame.atu ? [" · ", t("Atu:"), " ", card(frame.atu)] : null,
    frame.turn_name ? [" · ", t("To move:"), " ", h("strong", {}, frame.turn_name)] : null,
  );
  el("replay-table-note").hidden = !frame.table_before_last_move;
  patch(el("replay-discard"), frame.discard.length ? frame.discard.map(card) : h("span", { class: "aside" }, t("empty")));
  patch(
    el("replay-melds"),
    frame.melds.length
      ? frame.melds.map((meld) => h("span", { class: "replay-meld", title: meld.owner }, meld.cards.map(card)))
      : h("span", { class: "aside" }, t("no melds")),
  );
  patch(
    el("replay-hands"),
    frame.hands.map((hand) =>
      h(
        "section",
        { class: `replay-hand${hand.seat === frame.turn ? " to-move" : ""}`, "data-seat": String(hand.seat) },
        h("h3", {}, `${hand.name}${hand.you ? ` (${t("you")})` : ""} · ${tn("%(n)s card", "%(n)s cards", hand.count)}`),
        h(
          "div",
          { class: "replay-row" },
          hand.cards === null ? h("span", { class: "replay-hidden" }, t("hidden")) : hand.cards.map(card),
        ),
      ),
    ),
  );
  patch(el("replay-lines"), frame.over ? linesTable(frame.lines) : null);
  renderAnalysis();
  /** @type {[string, number][]} */
  const links = [["replay-first", 0], ["replay-prev", Math.max(step - 1, 0)], ["replay-next", Math.min(step + 1, last)], ["replay-last", last]];
  for (const [id, target] of links) {
    const link = el(id);
    link.href = `?step=${target}`;
    link.setAttribute("aria-disabled", target === step ? "true" : "false");
  }
  const url = new URL(window.location.href);
  url.searchParams.set("step", String(step));
  window.history.replaceState(null, "", url);
}

function linesTable(lines) {
  const heads = [t("Player"), t("Hand"), t("Table"), t("Bonus"), t("Atu"), "×", t("Points"), t("Total")];
  return [
    h("h2", {}, t("Round over")),
    h("div", { class: "table-scroll" }, h(
      "table",
      { class: "table score-lines" },
      h("thead", {}, h("tr", {}, heads.map((text) => h("th", {}, text)))),
      h(
        "tbody",
        {},
        lines.map((line) =>
          h("tr", {}, [line.name, line.hand, line.table, line.bonus, line.atu_bonus, line.multiplier, line.points, line.total].map((v) => h("td", {}, String(v)))),
        ),
      ),
    )),
  ];
}

async function go(target) {
  const next = Math.min(Math.max(target, 0), last);
  if (next === step) return;
  if (!frames.has(next)) {
    if (asking !== null) return; // one page at a time
    asking = next;
    root.setAttribute("aria-busy", "true");
    try {
      await fetchPage(next);
    } catch (/** @type {any} */ refusal) {
      const text = refusal && refusal.message ? refusal.message : t("The replay could not be loaded.");
      patch(el("replay-move"), h("span", { role: "alert", "data-code": (refusal && refusal.code) || "" }, text));
      return;
    } finally {
      asking = null;
      root.removeAttribute("aria-busy");
    }
  }
  step = next;
  render();
}

const targets = {
  "replay-first": () => 0,
  "replay-prev": () => step - 1,
  "replay-next": () => step + 1,
  "replay-last": () => last,
};
for (const [id, target] of Object.entries(targets)) {
  el(id).addEventListener("click", (event) => {
    event.preventDefault();
    go(target());
  });
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = (event.target instanceof Element && event.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
  const keys = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last };
  if (event.key in keys) {
    event.preventDefault();
    go(keys[event.key]);
  }
});

// --- the analysis of a round (docs/learn.md): every text comes from the server, in the page's
// language; this only places it at the move it concerns, polls while it runs, and asks for it.

const analysisNode = document.getElementById("replay-analysis-data");
const analysis = analysisNode ? JSON.parse(analysisNode.textContent) : null;
let polling = null;

function renderAnalysis() {
  if (!analysis) return;
  const marks = [];
  for (const one of analysis.analyses) {
    for (const decision of one.decisions) {
      if (decision.step === step) {
        marks.push(h("p", { class: `analysis-mark${decision.mark ? ` ${decision.mark}` : ""}`, "data-step": String(decision.step) }, h("strong", {}, one.name), " · ", decision.text));
      }
    }
  }
  patch(el("analysis-marks"), marks);
  patch(
    el("analysis-status"),
    analysis.analyses.map((one) =>
      h(
        "p",
        { class: "aside analysis-status", "data-seat": String(one.seat), "data-status": one.status },
        h("strong", {}, one.name), " · ", one.status_text, " ",
        one.decisions.filter((d) => d.mark).map((d) => [
          h("a", { class: `analysis-jump ${d.mark}`, href: `?step=${d.step}`, "data-step": String(d.step), onclick: (event) => { event.preventDefault(); go(d.step); } }, d.jump),
          " ",
        ]),
      ),
    ),
  );
  const form = el("analysis-form");
  if (form) form.hidden = !analysis.can_ask;
  const running = analysis.analyses.some((one) => one.status === "pending" || one.status === "running");
  if (running && polling === null) polling = window.setTimeout(refreshAnalysis, 2000);
}

async function refreshAnalysis(init) {
  polling = null;
  try {
    const response = await fetch(analysis.url, { ...init, headers: { Accept: "application/json", ...(init && init.headers) }, credentials: "same-origin" });
    const data = await response.json();
    if (!response.ok) {
      patch(el("analysis-marks"), h("p", { class: "analysis-mark mistake", role: "alert", "data-code": data.code }, data.message));
      return;
    }
    analysis.analyses = data.analyses;
    analysis.can_ask = data.can_ask;
  } catch {
    // The network failed: try again later, the page keeps what it shows.
  }
  renderAnalysis();
  if (polling === null && analysis.analyses.some((one) => one.status === "pending" || one.status === "running")) {
    polling = window.setTimeout(refreshAnalysis, 2000);
  }
}

if (analysis) {
  const form = el("analysis-form");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const token = /** @type {HTMLInputElement} */ (form.querySelector("input[name=csrfmiddlewaretoken]")).value;
      el("analysis-ask").disabled = true;
      refreshAnalysis({ method: "POST", headers: { "X-CSRFToken": token } });
    });
  }
}

root.classList.add("live");
render();
