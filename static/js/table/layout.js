// The one-screen table (docs/table.md): the top bar (whose turn, the clock, the drawers'
// buttons), the opponents' strip, the drawers that open over the table (the move log, scores,
// settings, help; chat is mounted by chat.js into the page's own drawer) and the round summary
// that stays over the table until closed. Presentation only: everything comes from the frame.

import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { roundWord, seatOut, turnText } from "./families/index.js";
import { seatInfo, seatStateText, timerText } from "./render.js";
import { button, seatName } from "./widgets.js";

/** The drawers, in the order of their buttons. `icon` is what a narrow bar shows. */
export const DRAWERS = [
  { name: "log", label: () => t("Moves"), icon: "☰" },
  { name: "scores", label: () => t("Scores"), icon: "Σ" },
  { name: "chat", label: () => t("Chat"), icon: "✉" },
  { name: "settings", label: () => t("Settings"), icon: "⚙" },
  { name: "help", label: () => t("Keys"), icon: "?" },
];

export function renderTopBar(model, f, act) {
  const conn = {
    connecting: [t("Connecting…"), "conn-wait"],
    live: [model.statusDetail || t("Live"), "conn-live"], // a detail: what the connection is (practice)
    reconnecting: [t("Reconnecting…"), "conn-wait"],
    closed: [`${t("Offline")}${model.statusDetail ? ` (${t(model.statusDetail)})` : ""}`, "conn-off"],
    anonymous: [t("Not logged in"), "conn-off"],
  }[model.status] || [model.status, "conn-wait"];
  const login = model.status === "anonymous" && model.loginUrl
    ? h("a", { href: model.loginUrl, class: "login-link" }, t("Log in to follow the game live"))
    : null;
  let turn;
  if (f.over) turn = t("The match is over");
  else if (f.paused) turn = t("Pause between rounds");
  else turn = turnText(f);
  const drawers = DRAWERS.filter((d) => d.name !== "chat" || model.hasChat).map((d) =>
    button(h("span", { class: "drawer-icon", "aria-hidden": "true" }, d.icon), () => act.drawer(d.name), {
      key: `drawer:${d.name}`,
      cls: `drawer-toggle${model.drawer === d.name ? " open" : ""}`,
      ariaLabel: d.label(),
      title: d.label(),
      ariaExpanded: model.drawer === d.name,
      controls: `drawer-${d.name}`,
    }));
  return [
    model.roomUrl ? h("a", { class: "tbl-back", href: model.roomUrl, "aria-label": t("Back to the room"), title: t("Back to the room") }, "←") : null,
    h("div", { class: "tbl-title", title: model.roomName || null },
      h("span", { class: "tbl-room" }, model.roomName || ""),
      h("span", { class: "round-line" }, `${roundWord(f.family)} ${f.view.round}`)),
    h("span", { class: `turn-line${f.myTurn && !f.paused ? " mine" : ""}`, id: "turn-line", role: "status" }, turn),
    h("span", { class: "timer", id: "turn-timer", "aria-label": t("time left for this turn") }, timerText(model, f)),
    h("span", { class: `conn ${conn[1]}`, id: "conn-status", title: conn[0] }, h("span", { class: "conn-text" }, conn[0])),
    login,
    h("span", { class: "drawer-buttons", role: "group", "aria-label": t("Panels") }, drawers),
  ];
}

/** The seats around the table: name, cards in hand, total, state; whose turn it is stands out. */
export function renderSeats(model, f) {
  const { view } = f;
  return h("ol", { class: "seat-strip", id: "seat-strip", "aria-label": t("seats") },
    view.names.map((name, seat) => {
      const info = seatInfo(model, seat);
      const state = info ? (info.kind === "bot" ? "bot" : info.state) : "";
      const text = seatStateText(model, view, seat);
      const toMove = seat === view.turn && !f.over;
      const out = seatOut(f, seat);
      return h("li", {
        class: `strip-seat${toMove ? " to-move" : ""}${seat === view.seat ? " me" : ""}${out ? " out" : ""}${state ? ` state-${state}` : ""}`,
        "aria-current": toMove ? "true" : null,
        dataset: { seat: String(seat), state: state || null },
      },
      state ? h("span", { class: "dot", "aria-hidden": "true", title: text }) : null,
      h("span", { class: "strip-name" }, name, seat === view.seat ? h("span", { class: "visually-hidden" }, ` ${t("(you)")}`) : null),
      h("span", { class: "strip-cards", "aria-label": tn("%(n)s card", "%(n)s cards", view.hand_sizes[seat]) }, `🂠${view.hand_sizes[seat]}`),
      h("span", { class: "strip-total", title: t("total") }, String(view.scores.totals[seat])),
      text ? h("span", { class: "visually-hidden" }, `, ${text}`) : null);
    }));
}

/** A drawer over the table: a title, a close button, its content. */
export function drawer(name, title, act, open, ...content) {
  return h("aside", { class: "tbl-drawer", id: `drawer-${name}`, "aria-label": title, hidden: !open, dataset: { drawer: name } },
    drawerHead(name, title, act),
    h("div", { class: "drawer-body", dataset: { scrollKey: `drawer-${name}` } }, content));
}

export function drawerHead(name, title, act) {
  return h("div", { class: "drawer-head" },
    h("h2", { class: "drawer-title" }, title),
    button("×", () => act.drawer(null), { key: `close:${name}`, cls: "drawer-close", ariaLabel: t("Close") }));
}

/** The move log: one line per move of the round, oldest first (main.js keeps them). */
export function renderLog(model) {
  const lines = model.log;
  if (!lines.length) return h("p", { class: "aside", id: "move-log-empty" }, t("No moves yet this round."));
  return h("ol", { class: "move-log", id: "move-log", "aria-label": t("Moves of this round") },
    lines.map((line) => h("li", { class: `log-line${line.standin ? " standin" : ""}${line.kind ? ` log-${line.kind}` : ""}`, dataset: { version: String(line.version) } }, line.text)));
}

/** The keyboard's help: the shortcuts (main.js handles them). */
export function renderHelp() {
  const keys = [
    ["D", t("draw from the stock")],
    ["T", t("take from the discards")],
    ["L", t("lay down")],
    ["X", t("discard the selected card")],
    ["←/→", t("move between the cards of the rack")],
    [t("Shift") + " + ←/→", t("move the focused card on the rack")],
    [t("Space"), t("select or unselect the focused card")],
    ["M", t("the move log")],
    ["S", t("the scores")],
    ["?", t("this help")],
    ["Esc", t("close the panel")],
  ];
  return h("dl", { class: "keys", id: "keys-help" }, keys.map(([k, what]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, what)]));
}

export function seatLabel(view, seat) {
  return seatName(view, seat);
}
