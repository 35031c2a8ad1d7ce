// Building the table's DOM from the model: the derived facts every region reads, the banner and
// the round's summary, the players, the display choices and where a refusal is shown. The other
// regions are board.js, mine.js (with controls.js), scores.js and layout.js. No rules here: what
// is enabled comes from the view's `you` hints, and what is legal is answered by the server.

import { h } from "../dom.js";
import {
  arrangesKnock,
  familyOf,
  lastDealSummary,
  laysAll,
  lineDetail,
  lineRules,
  overText,
  playerBadges,
  pointsText,
  roundWord,
  seatOut,
  totalTitle,
} from "./families/index.js";
import { t, tn } from "../i18n.js";
import { button, cardEl, formatSeconds, seatName } from "./widgets.js";

export { cardEl, formatSeconds };

// --- derived facts about the model ------------------------------------------------------------

export function facts(model) {
  const view = model.frame.view;
  const you = view.you || null;
  const seated = view.seat !== null && view.seat !== undefined && view.hand !== null;
  const now = model.now();
  const clock = model.frame.clock || null;
  const paused = Boolean(clock && clock.resume_at && clock.resume_at > now);
  const over = view.phase === "over";
  const myTurn = Boolean(you && you.my_turn) && !over;
  const moves = you ? you.moves : [];
  const busy = Boolean(model.pending) || model.status !== "live";
  // turnOpen: the controls of the turn are shown; canAct: they can be used right now (not while
  // a command waits for its answer or the socket is down).
  const turnOpen = myTurn && !paused;
  const canAct = turnOpen && !busy;
  const taking = Boolean(model.draft.take);
  const family = familyOf(view);
  // Melds for a knock may be arranged by hand (the gin family).
  const arranging = arrangesKnock(family, moves);
  // Building melds is possible while a take is being put together, in the play phase, or to knock.
  const canBuild = turnOpen && (taking || moves.includes("play") || arranging);
  return { view, you, seated, clock, paused, over, myTurn, moves, busy, turnOpen, canAct, canBuild, taking, arranging, family, now };
}

// --- regions ------------------------------------------------------------------------------------

/** The turn timer text: counting down turn_seconds from turn_started; "" without a clock. */
export function timerText(model, f) {
  const clock = f.clock;
  if (!clock || f.over || f.paused || !clock.turn_seconds || !clock.turn_started) return "";
  const left = clock.turn_seconds - (f.now - clock.turn_started) / 1000;
  return t("%(time)s left", { time: formatSeconds(left) });
}

export function renderBanner(model, f, act) {
  const { view } = f;
  const mine = f.seated ? seatInfo(model, view.seat) : null;
  const away = mine && mine.state === "away" && !f.over && !model.returning
    ? h("div", { class: "banner banner-away", id: "away-banner", role: "status" },
        h("p", {}, h("strong", {}, t("You are away.")), " ",
          mine.standin ? t("A bot is playing your turns until you come back.") : t("The table may play your turns for you.")),
        button(t("I'm back"), act.back, { key: "back", cls: "primary", disabled: model.status !== "live" }))
    : null;
  return away;
}

/**
 * The round's summary over the table: shown when a round ends (its score lines, how it ended),
 * through the pause and after it, until the player closes it; the match's result at the end.
 */
export function renderSummary(model, f, act) {
  const rounds = f.view.scores.rounds;
  const last = rounds[rounds.length - 1];
  const which = f.over ? "over" : last ? `round:${last.round}` : null;
  if (!which || model.summaryClosed === which) return null;
  if (!f.over && !f.paused && model.summaryFor !== which) return null;
  const body = bannerBody(model, f);
  if (!body) return null;
  return h("div", { class: "summary-panel", id: "summary-panel", role: "dialog", "aria-label": f.over ? t("Match over.") : t("Round summary") },
    button("×", () => act.closeSummary(which), { key: "close:summary", cls: "drawer-close summary-close", ariaLabel: t("Close") }),
    body);
}

function bannerBody(model, f) {
  const { view } = f;
  const rounds = view.scores.rounds;
  if (f.over) {
    const winners = (view.winners || []).map((s) => seatName(view, s));
    return h(
      "div",
      { class: "banner banner-over", role: "status" },
      h("strong", {}, `${t("Match over.")} `),
      winners.length ? tn("Winner: %(names)s.", "Winners: %(names)s.", winners.length, { names: winners.join(", ") }) : t("No winner."),
      " ",
      h("span", { class: "totals" }, totalsText(view)),
      overText(f) ? h("p", { class: "over-extra" }, overText(f)) : null,
      model.rematchSlot || null,
      rounds.length ? h("details", { class: "last-deal", dataset: { keep: "banner-last-deal" } }, h("summary", {}, t("How %(round)s ended", { round: `${roundWord(f.family).toLowerCase()} ${rounds[rounds.length - 1].round}` })),
        roundLines(view, rounds[rounds.length - 1])) : null,
    );
  }
  const last = rounds[rounds.length - 1];
  if (!last) return null;
  const left = f.paused ? (f.clock.resume_at - f.now) / 1000 : 0;
  return h(
    "div",
    { class: `banner ${f.paused ? "banner-pause" : "banner-round"}`, role: "status" },
    h("p", {}, h("strong", {}, `${t("%(round)s is over.", { round: `${roundWord(f.family)} ${last.round}` })} `),
      f.paused ? [t("Next %(round)s in", { round: roundWord(f.family).toLowerCase() }), " ", h("span", { id: "pause-countdown" }, formatSeconds(left)), "."] : null),
    roundLines(view, last),
    lastDealSummary(model, f),
  );
}

function totalsText(view) {
  return view.names.map((name, seat) => `${name} ${view.scores.totals[seat]}`).join(" · ");
}

export function roundLines(view, round) {
  return h(
    "ul",
    { class: "round-lines" },
    round.lines.map((line) =>
      h("li", {}, h("strong", {}, `${seatName(view, line.seat)}: ${pointsText(view, line.points)}`),
        ` (${lineDetail(view, line)}) → ${t("total %(total)s", { total: round.totals[line.seat] })} `, lineRules(line)),
    ),
  );
}

export function renderPlayers(model, f) {
  const { view } = f;
  return [
    h("h2", { class: "visually-hidden" }, t("Players")),
    h(
      "ol",
      { class: "players" },
      view.names.map((name, seat) => {
        const toMove = seat === view.turn && !f.over;
        const out = seatOut(f, seat);
        return h(
          "li",
          {
            class: `player${toMove ? " to-move" : ""}${seat === view.seat ? " me" : ""}${out ? " out" : ""}`,
            "aria-current": toMove ? "true" : null,
            dataset: { seat: String(seat) },
          },
          h("span", { class: "player-name" }, name, seat === view.seat ? ` ${t("(you)")}` : ""),
          h("span", { class: "player-cards", title: t("cards in hand") }, tn("%(n)s card", "%(n)s cards", view.hand_sizes[seat])),
          playerBadges(f, seat),
          seatStateEl(model, view, seat),
          h("span", { class: "player-total", title: totalTitle(f.family) }, String(view.scores.totals[seat])),
          toMove ? h("span", { class: "to-move-mark" }, t("to move")) : null,
        );
      }),
    ),
  ];
}

/** The seat's entry in the frame's `seats` list (absent from frames of an older server). */
export function seatInfo(model, seat) {
  const seats = Array.isArray(model.frame.seats) ? model.frame.seats : [];
  return seats.find((s) => s && s.seat === seat) || null;
}

/** "connected", "offline", "away — bot playing for Ala", "bot". */
export function seatStateText(model, view, seat) {
  const info = seatInfo(model, seat);
  if (!info) return "";
  if (info.kind === "bot") return t("bot");
  if (info.state === "away") {
    return info.standin ? t("away — bot playing for %(name)s", { name: seatName(view, seat) }) : t("away");
  }
  if (info.state === "offline") return t("offline");
  if (info.state === "connected") return t("connected");
  return String(info.state || "");
}

function seatStateEl(model, view, seat) {
  const info = seatInfo(model, seat);
  if (!info) return null;
  const state = info.kind === "bot" ? "bot" : info.state;
  return h("span", { class: `seat-state state-${state}`, dataset: { state } },
    seatStateText(model, view, seat),
    info.timeouts ? h("span", { class: "timeouts" }, ` · ${t("missed turns: %(n)s", { n: info.timeouts })}`) : null);
}

/** Large cards, the four-colour deck and the turn sound (kept with the account and in this browser). */
export function renderPrefs(model) {
  const toggle = (name, label, on, act) =>
    h("button", { type: "button", class: "tbtn small quiet pref", "aria-pressed": String(Boolean(on)), dataset: { key: `pref:${name}` }, onclick: act }, label);
  return h("div", { class: "display-prefs", role: "group", "aria-label": t("Cards") },
    toggle("large", t("Large cards"), model.prefs.large, () => model.setPref("large", !model.prefs.large)),
    toggle("four", t("Four-colour deck"), model.prefs.four, () => model.setPref("four", !model.prefs.four)),
    toggle("sound", t("Sound on your turn"), model.prefs.sound, () => model.setPref("sound", !model.prefs.sound)));
}

/** Where the last refusal is shown: next to what caused it (a table meld, the discard box, the lay-down button), else under the controls. */
export function errorPlace(model, f) {
  const at = model.errorAt || "controls";
  if (at.startsWith("meld:") && !f.view.melds.some((m) => `meld:${m.id}` === at)) return "controls";
  if (at === "lay-all" && (!laysAll(f.family) || !f.seated || f.over)) return "controls";
  return at;
}

/** The error box (#move-error) if the error belongs at `where`. */
export function errorHere(model, f, where) {
  if (errorPlace(model, f) !== where) return null;
  // The refusal's code stays out of sight (data-code, for tests and tools); the player reads the
  // sentence and, beside it, the rule id as a tag.
  return h("div", { class: "error", id: "move-error", role: "alert", dataset: { at: where, code: model.error ? model.error.code : null } },
    model.error ? [h("strong", {}, t(model.error.message)), ruleRef(model.error)] : null);
}

/** A refusal's rule id as a small tag beside its sentence (never the error's code; docs/i18n.md). */
function ruleRef(error) {
  const rule = error.rule;
  if (!rule || String(error.message).includes(rule)) return null;
  return [" ", h("small", { class: "rule-ref" }, rule)];
}
