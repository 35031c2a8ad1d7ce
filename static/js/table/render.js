// Building the table's DOM from the model. No rules here: what is enabled comes from the
// view's `you` hints, and what is legal is answered by the server.

import { cardName, cardShort, declarationChoices, faceOf, parseCard } from "./cards.js";
import { h } from "../dom.js";
import { pool as draftPool, hasPlay, isEmpty, usedKeys } from "./draft.js";
import {
  boardInfo,
  describeFamilyEvent,
  familyOf,
  isRow,
  lastDealSummary,
  lineDetail,
  lineRules,
  meldLabel,
  mineInfo,
  overText,
  playerBadges,
  pointsText,
  roundOverLine,
  roundWord,
  scoreExtras,
  scoreFootRows,
  scoringText,
  takeAlone,
  takenCard,
  totalTitle,
} from "./families/index.js";
import { t, tn } from "../i18n.js";
import { blocks } from "./rack.js";
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
  // Melds for a knock may be arranged by hand in the gin family (the engine lays the best ones
  // when none are given).
  const arranging = family === "gin" && moves.includes("knock");
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

function roundLines(view, round) {
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
        const out = f.family === "knock" && !view.in_game[seat];
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

/** The stock's label: its word and its count, each on a line of its own. */
function stockLabel(view) {
  return [h("span", { class: "stock-word" }, t("Stock")), h("span", { class: "stock-count" }, String(view.stock_size))];
}

export function renderBoard(model, f, act) {
  const { view } = f;
  const row = isRow(view);
  const alone = takeAlone(f.family);
  const takeable = f.you && f.turnOpen && f.moves.includes("take") ? f.you.takeable : [];
  const canDraw = f.turnOpen && f.moves.includes("draw") && !f.taking;

  const stock = canDraw
    ? button(stockLabel(view), act.draw, { key: "stock", cls: "stock stock-live", disabled: !f.canAct, ariaLabel: tn("Draw from the stock (%(n)s card)", "Draw from the stock (%(n)s cards)", view.stock_size) })
    : h("div", { class: "stock", role: "img", "aria-label": tn("stock: %(n)s card", "stock: %(n)s cards", view.stock_size) }, stockLabel(view));

  // The atu (Remi) can be pulled into a new meld in the going-out move: selectable like a hand card.
  let atuCard = null;
  if (view.atu) {
    const free = view.atu_taken_by === null;
    const placed = usedKeys(model.draft).has(view.atu) || Boolean(model.atuOnRack);
    atuCard = free && f.canBuild && !placed
      ? cardEl(view.atu, { key: `hand:${view.atu}`, pressed: model.selected.includes(view.atu), onclick: () => act.toggle(view.atu),
          label: t("atu, %(card)s: select it for a new meld", { card: cardName(view.atu) }), classes: "src-atu", disabled: !f.canAct,
          drag: model.atuOnRack ? null : `atu:${view.atu}` })
      : cardEl(view.atu, { classes: placed ? "placed" : "" });
  }
  const atu = view.atu
    ? h("div", { class: "atu" }, h("span", { class: "label" }, t("Atu")), atuCard,
        view.atu_taken_by !== null ? h("span", { class: "aside" }, ` ${t("taken by %(name)s", { name: seatName(view, view.atu_taken_by) })}`) : null)
    : null;

  const pickedIndex = f.taking ? view.discard.lastIndexOf(model.draft.take) : -1;
  let pile;
  if (!view.discard.length) pile = h("p", { class: "aside" }, t("No discards yet."));
  else {
    const shown = row ? view.discard.map((c, i) => [c, i]) : [[view.discard[view.discard.length - 1], view.discard.length - 1]];
    pile = h(
      "ol",
      { class: `discards${row ? " row" : ""}`, "aria-label": row ? t("discard row, oldest first") : t("top of the discard pile"),
        // The row wraps inside its own box, which shows its newest end after every change.
        dataset: row ? { scrollKey: "discards", scrollEnd: "true", scrollSize: `${view.discard.length}${model.rowOpen ? " open" : ""}` } : {} },
      shown.map(([c, i]) => {
        const coming = pickedIndex >= 0 && i >= pickedIndex;
        const classes = coming ? (i === pickedIndex ? "picked" : "along") : "";
        const canTake = takeable.includes(c) && !f.taking;
        const el = canTake
          ? cardEl(c, { key: `take:${c}`, label: t("take %(card)s from the discards", { card: cardName(c, "acc") }), onclick: () => (alone ? act.take(c) : act.startTake(c)),
              classes: `${classes} takeable`, disabled: !f.canAct, drag: `take:${c}` })
          : cardEl(c, { classes });
        return h("li", {}, el);
      }),
    );
  }
  // The row's older cards are out of sight in its box: a cue says how many (main.js counts them)
  // and shows the whole row over the table with one tap, where a deep card is one more tap away
  // (issue 33, item 8).
  if (row && view.discard.length) {
    const cue = button(
      [h("span", { class: "row-more-arrow", "aria-hidden": "true" }, model.rowOpen ? "▾" : "▴"),
        h("span", { class: "row-more-count" }, model.rowOpen ? t("Close") : "")],
      act.toggleRow,
      { key: "row-more", cls: "row-more", ariaExpanded: model.rowOpen,
        title: model.rowOpen ? t("Hide the older discards") : t("Show the whole discard row") });
    pile = h("div", { class: `row-box${model.rowOpen ? " open" : ""}` }, cue, pile);
  }
  const pileNote = !row && view.discard.length > 1 ? h("p", { class: "aside" }, tn("%(n)s card in the pile", "%(n)s cards in the pile", view.discard.length)) : null;

  const discardable = new Set((f.you ? f.you.discards : []).map(faceOf));
  const one = model.selected.length === 1 && view.hand && view.hand.includes(model.selected[0]) ? model.selected[0] : null;
  const canDrop = f.turnOpen && f.moves.includes("discard");
  const here = canDrop && one !== null && discardable.has(faceOf(one))
    ? button(t("Discard %(card)s here", { card: cardShort(one) }), () => act.discard("discard"),
        { key: "discard-here", cls: "small discard-here", disabled: !f.canAct, ariaLabel: t("Discard %(card)s", { card: cardName(one, "acc") }) })
    : null;
  return [
    h("h2", { class: "visually-hidden" }, t("Table")),
    h("div", { class: "stock-row" }, stock, atu,
      h("div", { class: `discard-box${canDrop ? " drop-zone" : ""}`, id: "discard-box", dataset: canDrop ? { drop: "discard" } : {} },
        h("span", { class: "label" }, row ? t("Discard row") : f.family === "gin" ? t("Face-up pile") : t("Discard pile")), pile, pileNote, here,
        errorHere(model, f, "discard"))),
    // What the deal is played with, a knock's loose cards, then the melds: one scrolling area.
    h("div", { class: "board-scroll", dataset: { scrollKey: "board" } }, boardInfo(model, f), renderMelds(model, f, act)),
  ];
}

function renderMelds(model, f, act) {
  const { view } = f;
  if (!view.melds.length) return h("div", { class: "melds-area" }, h("p", { class: "aside melds-empty" }, t("No melds on the table yet.")));
  const selected = model.selected;
  const consumed = new Set(view.consumed_jokers || []);
  return h("div", { class: "melds-area" }, h(
    "ul",
    { class: "table-melds", "aria-label": t("melds on the table") },
    view.melds.map((meld) => {
      const hasJoker = meld.cards.some((c) => parseCard(c)?.joker);
      const label = meldLabel(f, meld);
      // Not opened yet (the view's `you.opening` is there until the seat may build on the table):
      // a lay-off or a joker exchange goes only with an opening laid in the same move, so the
      // tools wait for a new meld in the draft and say why (the engine's not_opened).
      const closed = Boolean(f.you && f.you.opening) && !model.draft.melds.length;
      // The tools show once cards are selected (the meld itself is then a tap target too).
      const tools = f.canBuild && selected.length
        ? h("span", { class: "meld-tools" },
            button(closed ? LAY_REASON.not_opened() : t("Add selected"), () => act.layoff(meld.id), { key: `layoff:${meld.id}`, disabled: closed || !f.canAct || !selected.length, cls: "small",
              ariaLabel: closed ? null : t("add the selected cards to meld %(id)s (%(label)s)", { id: meld.id, label }) }),
            hasJoker && !closed
              ? button(t("Swap for joker"), () => act.exchange(meld.id), { key: `exchange:${meld.id}`, disabled: !f.canAct || selected.length !== 1, cls: "small",
                  ariaLabel: t("put the selected card in place of the joker in meld %(id)s", { id: meld.id }) })
              : null)
        : null;
      const cards = meld.cards.map((c) => cardEl(c, {
        consumed: consumed.has(parseCard(c)?.id),
        note: consumed.has(parseCard(c)?.id) ? t("used") : null,
        // Buy back a joker by dropping the card it stands for on it (RMI-UI-12).
        drop: f.canBuild && parseCard(c)?.joker ? `joker:${meld.id}` : null,
      }));
      const target = f.canBuild && selected.length && !closed
        ? h("button", { type: "button", class: "meld-cards meld-target", dataset: { key: `meld-target:${meld.id}` }, disabled: !f.canAct,
            "aria-label": t("add the selected cards to meld %(id)s (%(label)s)", { id: meld.id, label }), onclick: () => act.layoff(meld.id) }, cards)
        : h("span", { class: "meld-cards" }, cards);
      return h(
        "li",
        { class: `table-meld${f.canBuild && !closed ? " drop-zone" : ""}`, dataset: { meld: String(meld.id), drop: f.canBuild && !closed ? `meld:${meld.id}` : null } },
        h("span", { class: "meld-label" }, label),
        target,
        tools,
        errorHere(model, f, `meld:${meld.id}`),
      );
    }),
  ));
}

/**
 * The cards the rack holds now: the hand, and while a move is being built the cards it brings in
 * (a take's cards, jokers freed by an exchange; the atu once the player put it on the rack).
 * Cards placed in the draft are off the rack. Items are {key, wire, source}.
 */
export function rackItems(model, f) {
  const { view } = f;
  if (!f.seated) return [];
  const handOrder = model.handOrder();
  const building = f.canBuild || !isEmpty(model.draft);
  const items = building ? draftPool(model.draft, view, handOrder) : handOrder.map((id) => ({ key: id, wire: id, source: "hand" }));
  // The atu stays beside the stock until the player drags (or taps) it onto the rack (RMI-UI-11).
  return items.filter((item) => item.source !== "atu" || model.atuOnRack);
}

/** What a rack key is as a card ("freed:0" is the joker an exchange frees). */
export function keyText(key) {
  return key.startsWith("freed:") ? "JK" : key;
}

export function renderMine(model, f, act) {
  if (!f.seated) {
    return [h("p", { class: "notice spectator-note" }, t("You are watching: nobody’s hand is shown."))];
  }
  const { view, you } = f;
  return [
    h("div", { class: "mine-bar" },
      h("h2", { id: "hand-title", class: "visually-hidden" }, t("Your hand (%(n)s)", { n: view.hand.length })),
      h("span", { class: "sort-buttons", role: "group", "aria-label": t("Sort the rack") },
        button(sortLabel(t("Sort: runs")), () => act.sortRack("runs"), { key: "sort-runs", cls: "small quiet", ariaLabel: t("Sort the rack by runs") }),
        button(sortLabel(t("Sort: sets")), () => act.sortRack("sets"), { key: "sort-sets", cls: "small quiet", ariaLabel: t("Sort the rack by sets") })),
      renderLayAll(model, f, act)),
    h("div", { class: "mine-info", id: "mine-info", dataset: { scrollKey: "mine-info" } },
      you && you.opening ? renderOpening(model, f, act) : null,
      mineInfo(model, f),
      renderDraft(model, f, act)),
    renderRack(model, f, act),
    renderControls(model, f, act),
  ];
}

/** "Sort: runs" as its prefix and its word: a phone shows the word alone (table.css). */
function sortLabel(text) {
  const at = text.indexOf(":");
  if (at < 0) return text;
  return [h("span", { class: "sort-prefix" }, text.slice(0, at + 1) + " "), h("span", { class: "sort-word" }, text.slice(at + 1).trim())];
}

const SOURCE_NOTE = {
  picked: () => t("taken"),
  along: () => t("comes along"),
  freed: () => t("from table"),
  atu: () => t("atu"),
};

function renderRack(model, f, act) {
  const items = new Map(rackItems(model, f).map((item) => [item.key, item]));
  const slots = model.rack.slots;
  const selected = new Set(model.selected);
  const fresh = new Set(model.fresh);
  const taken = takenCard(f);
  const answers = model.rackCheck ? model.rackCheck.data.groups : [];
  const found = new Map(); // slot index -> {length, answer}
  blocks(slots).forEach((block, index) => {
    const answer = model.rackCheck && model.rackCheck.sig === model.rackSig ? answers[index] : null;
    found.set(block.start, { length: block.keys.length, answer });
  });
  const inMeld = new Set();
  for (const [start, block] of found) {
    if (block.answer && block.answer.meld) for (let i = start; i < start + block.length; i += 1) inMeld.add(i);
  }
  const one = model.selected.length === 1 ? model.selected[0] : null;
  return h(
    "ol",
    { class: "hand rack", id: "hand", "aria-label": t("your rack"), "aria-describedby": "rack-help" },
    slots.map((key, index) => {
      const block = found.get(index);
      const value = block && block.answer && block.answer.meld
        ? h("span", { class: "block-value", style: `--span: ${block.length}`, dataset: { start: String(index), length: String(block.length) }, role: "note",
            "aria-label": t("meld worth %(points)s points", { points: block.answer.points }) },
            `${block.answer.points}`)
        : null;
      const item = key !== null ? items.get(key) : null;
      if (!item) {
        // An empty slot: tap it to put the selected card there, or drop a card on it.
        return h("li", { class: `slot empty${one ? " can-take" : ""}`, dataset: { slot: String(index), drop: `slot:${index}` },
          onclick: one ? () => act.toSlot(index) : null, title: one ? t("Put the selected card here") : null });
      }
      const note = SOURCE_NOTE[item.source]
        ? SOURCE_NOTE[item.source]()
        : taken && item.key === taken ? t("taken") : fresh.has(item.key) ? t("new") : null;
      const text = keyText(item.key);
      const label = item.source === "freed"
        ? t("%(card)s freed by the exchange", { card: cardName(text) })
        : note ? `${cardName(text)} (${note})` : cardName(text);
      return h("li", { class: `slot${inMeld.has(index) ? " in-meld" : ""}`, dataset: { slot: String(index), drop: `slot:${index}` } },
        value,
        cardEl(text, { key: `hand:${item.key}`, pressed: selected.has(item.key), label, note, classes: `in-hand src-${item.source}`,
          drag: `rack:${item.key}`,
          // Moving a card by taps: after "Move", a tap on a card puts the moving card in its slot
          // (inserted there, the others shift along), as a drop on it would (RMI-UI-3).
          onclick: model.moving && model.moving !== item.key ? () => act.place(model.moving, index) : () => act.toggle(item.key) }));
    }),
  );
}

const LAY_REASON = {
  nothing_to_lay: () => t("Put three or more cards side by side, with an empty slot on each side, to make a meld."),
  opening_too_low: (f, lay) => t("Opening below the minimum: %(points)s of %(need)s points.",
    { points: lay.points, need: f.you && f.you.opening ? f.you.opening.required_points : "?" }),
  opening_needs_run: (f) => (f.you && f.you.opening && f.you.opening.required_run === "pure"
    ? t("The opening needs a pure run (no joker).") : t("The opening needs a run.")),
  first_turn: () => t("Nobody lays down on their first turn."),
  not_your_turn: () => t("Not your turn."),
  wrong_phase: (f) => (f.view.phase === "draw" ? t("Draw first.") : t("Not now.")),
  must_keep_discard: () => t("Keep one card to discard."),
  taken_card_not_melded: () => t("The card you take must go into a meld laid now."),
  not_opened: () => t("You have not opened yet."),
};

/** The button above the rack: lay down every meld found at once, or why not (RMI-UI-6/7). */
function renderLayAll(model, f, act) {
  if (f.family !== "cycle" || f.over) return null;
  // While a new answer is on its way the last one stays (greyed), so nothing jumps under a finger.
  const current = Boolean(model.rackCheck && model.rackCheck.sig === model.rackSig);
  const check = model.rackCheck ? model.rackCheck.data : null;
  const lay = check ? check.lay_down : null;
  const ready = Boolean(current && lay && lay.possible);
  // A label from an older answer (before the last lay-down, a sort…) is not kept.
  const label = current && lay && lay.melds
    ? tn("Lay down all (%(n)s meld, %(points)s points)", "Lay down all (%(n)s melds, %(points)s points)", lay.melds, { points: lay.points })
    : t("Lay down all");
  let reason = "";
  if (!check) reason = model.rackCheckError ? t("Cannot check the rack right now.") : t("Checking the rack…");
  else if (!lay.possible) reason = LAY_REASON[lay.code] ? LAY_REASON[lay.code](f, lay) : lay.message;
  // Disabled, the button says why (the engine's reason), in the same place: nothing moves.
  const text = ready || !reason ? label : reason;
  return h("div", { class: `lay-all${current ? "" : " stale"}${ready ? " ready" : ""}`, id: "lay-all" },
    h("button", { type: "button", class: `tbtn lay-all-button${ready ? " primary" : ""}`, dataset: { key: "lay-all" }, disabled: !ready || !f.canAct,
      "aria-describedby": "rack-help", onclick: act.layAll },
      ready || !reason ? label : h("span", { class: "lay-reason", id: "lay-reason", dataset: { code: current && lay && !lay.possible ? lay.code : "" } }, text)),
    errorHere(model, f, "lay-all"),
    h("p", { class: "visually-hidden", id: "rack-help" },
      t("Drag a card to a slot, or select it and tap an empty slot. Shift and the arrow keys move the focused card.")));
}

/** Where the last refusal is shown: next to what caused it (a table meld, the discard box, the lay-down button), else under the controls. */
export function errorPlace(model, f) {
  const at = model.errorAt || "controls";
  if (at.startsWith("meld:") && !f.view.melds.some((m) => `meld:${m.id}` === at)) return "controls";
  if (at === "lay-all" && (f.family !== "cycle" || !f.seated || f.over)) return "controls";
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

function renderOpening(model, f, act) {
  const o = f.you.opening;
  const run = o.required_run === "pure" ? t("a pure run") : o.required_run === "any" ? t("a run") : null;
  const need = [o.required_points ? t("%(n)s points", { n: o.required_points }) : null, run].filter(Boolean).join(` ${t("with")} `);
  const missing = o.missing.map((m) => ({ points: t("more points"), pure_run: t("a pure run"), run: t("a run") }[m] || m));
  const usable = f.canBuild && f.canAct && o.melds.length > 0 && !model.draft.melds.length;
  if (o.hidden) {
    // A puzzle: the engine's own opening is the answer, so the page is told only what is needed.
    return h("div", { class: "opening", id: "opening" },
      h("p", {}, h("strong", {}, `${t("Opening:")} `), t("you need %(need)s.", { need: need || t("a meld") })));
  }
  return h(
    "div",
    { class: "opening", id: "opening" },
    h("p", {},
      h("strong", {}, `${t("Opening:")} `),
      t("you need %(need)s. Your best melds are worth %(points)s", { need: need || t("a meld"), points: o.best_points }),
      o.ready ? ` — ${t("ready to open.")}` : missing.length ? ` — ${t("missing %(what)s.", { what: missing.join(` ${t("and")} `) })}` : "."),
    o.melds.length
      ? h("p", { class: "suggested" }, `${t("Suggested:")} `,
          o.melds.map((meld) => h("span", { class: "suggested-meld" }, meld.map(cardShort).join(" "))))
      : null,
    button(t("Use suggested opening"), act.useOpening, { key: "use-opening", disabled: !usable }),
  );
}

function renderDraft(model, f, act) {
  const draft = model.draft;
  if (isEmpty(draft)) return null;
  const { view } = f;
  const take = draft.take
    ? h("p", { class: "draft-take" }, `${t("Taking")} `, cardEl(draft.take), (() => {
        const along = view.discard.slice(view.discard.lastIndexOf(draft.take) + 1);
        return along.length ? ` ${tn("with %(n)s card that comes along (%(cards)s)", "with %(n)s cards that come along (%(cards)s)", along.length, { cards: along.map(cardShort).join(" ") })}` : "";
      })(), `. ${t("Use it in a new meld in this move.")}`)
    : null;
  const textOf = (key) => (key.startsWith("freed:") ? "JK" : key);
  const decl = (key, beside) => {
    if (!parseCard(textOf(key))?.joker) return null;
    const choices = declarationChoices(beside.map(textOf));
    return h("label", { class: "decl" }, h("span", { class: "visually-hidden" }, t("joker stands for")),
      h("select", { dataset: { key: `decl:${key}` }, "aria-label": t("joker stands for"), onchange: (e) => act.declare(key, e.target.value) },
        h("option", { value: "" }, `★ = ${t("auto")}`),
        choices.map((face) => h("option", { value: face, selected: draft.declared[key] === face }, `★ = ${cardShort(face)}`))));
  };
  const melds = draft.melds.map((meld, mi) =>
    h("li", { class: "draft-meld" },
      h("span", { class: "label" }, t("New meld %(n)s", { n: mi + 1 })),
      h("span", { class: "meld-cards" }, meld.map((key, ci) =>
        h("span", { class: "draft-card" },
          cardEl(textOf(key) + (draft.declared[key] ? `(${draft.declared[key]})` : "")),
          h("span", { class: "shift" },
            button("◀", () => act.shift(mi, ci, -1), { key: `shift:${mi}:${ci}:-1`, cls: "tiny", disabled: ci === 0, ariaLabel: t("move %(card)s left", { card: cardName(textOf(key), "acc") }) }),
            button("▶", () => act.shift(mi, ci, 1), { key: `shift:${mi}:${ci}:1`, cls: "tiny", disabled: ci === meld.length - 1, ariaLabel: t("move %(card)s right", { card: cardName(textOf(key), "acc") }) })),
          decl(key, meld)))),
      button(t("Remove"), () => act.removeMeld(mi), { key: `rm-meld:${mi}`, cls: "small quiet", ariaLabel: t("remove new meld %(n)s", { n: mi + 1 }) })));
  const layoffs = draft.layoffs.map((lo, li) =>
    h("li", { class: "draft-layoff" },
      h("span", { class: "label" }, t("Add to meld %(id)s", { id: lo.meld })),
      h("span", { class: "meld-cards" }, lo.cards.map((key) => h("span", { class: "draft-card" }, cardEl(textOf(key)), decl(key, (view.melds.find((m) => m.id === lo.meld) || { cards: [] }).cards)))),
      button(t("Remove"), () => act.removeLayoff(li), { key: `rm-layoff:${li}`, cls: "small quiet", ariaLabel: t("remove the addition to meld %(id)s", { id: lo.meld }) })));
  const exchanges = draft.exchanges.map((ex, xi) =>
    h("li", { class: "draft-exchange" },
      h("span", { class: "label" }, t("Swap into meld %(id)s", { id: ex.meld })), cardEl(ex.card), ` ${t("for its joker")}`,
      button(t("Remove"), () => act.removeExchange(xi), { key: `rm-ex:${xi}`, cls: "small quiet", ariaLabel: t("undo the joker swap in meld %(id)s", { id: ex.meld }) })));
  return h("div", { class: "draft", id: "draft", "aria-label": t("your move so far") },
    take,
    h("ul", { class: "draft-list" }, exchanges, melds, layoffs));
}

function renderControls(model, f, act) {
  const { you, view, family } = f;
  const draft = model.draft;
  const selected = model.selected;
  const handSet = new Set(view.hand);
  // A hint may list one copy of each face (Knock-108's two decks): a twin is discarded alike.
  const discardable = new Set((you ? you.discards : []).map(faceOf));
  const one = selected.length === 1 && handSet.has(selected[0]) ? selected[0] : null;
  const canDiscard = f.canAct && f.moves.includes("discard") && one !== null && discardable.has(faceOf(one));
  const playing = f.taking || f.moves.includes("play");
  const canSubmit = f.canAct && hasPlay(draft) && playing;
  const takeable = you && you.takeable ? you.takeable : [];
  const step = family === "gin" ? view.gin.step : family === "knock" ? view.stage : null;
  const buyBack = family === "knock" && step === "buy_back";
  const controls = [];
  if (f.turnOpen && f.moves.includes("draw") && !f.taking) {
    controls.push(button(t("Draw from stock"), act.draw, { key: "draw", cls: "primary", disabled: !f.canAct }));
  }
  if (f.turnOpen && takeAlone(family) && f.moves.includes("take") && takeable.length) {
    const card = takeable[takeable.length - 1];
    const offer = step === "offer";
    controls.push(button(offer ? t("Take the up-card") : t("Take %(card)s", { card: cardShort(card) }), () => act.take(card),
      { key: "take", cls: offer ? "primary" : "", disabled: !f.canAct, ariaLabel: offer ? null : t("take %(card)s from the discards", { card: cardName(card, "acc") }) }));
  }
  if (f.turnOpen && buyBack && f.moves.includes("knock")) {
    const cost = you.buy_back ? ` (${tn("%(n)s chip", "%(n)s chips", you.buy_back.cost)})` : "";
    controls.push(button(`${t("Buy back in")}${cost}`, act.buyBack, { key: "buy-back", cls: "primary", disabled: !f.canAct }));
    controls.push(button(t("Stay out"), act.pass, { key: "pass", disabled: !f.canAct }));
  } else if (f.turnOpen && f.moves.includes("pass") && step !== "reply") {
    controls.push(button(step === "exchange" ? t("Pass (no exchange)") : t("Pass"), act.pass, { key: "pass", disabled: !f.canAct }));
  }
  if (f.canBuild) {
    controls.push(button(t("New meld from selected"), act.newMeld, { key: "new-meld", disabled: !f.canAct || !selected.length }));
    if (family === "gin" && you.best_melds && you.best_melds.length && !draft.melds.length) {
      controls.push(button(t("Use best melds"), act.useBestMelds, { key: "use-best", disabled: !f.canAct }));
    }
    if (playing) controls.push(button(f.taking ? t("Take and lay down") : t("Lay down"), act.submit, { key: "submit", cls: "primary", disabled: !canSubmit }));
    if (!isEmpty(draft)) controls.push(button(f.taking ? t("Cancel take") : t("Clear"), act.clear, { key: "clear", cls: "quiet", disabled: !f.canAct }));
  }
  if (f.turnOpen && f.moves.includes("discard")) {
    controls.push(button(t("Discard selected"), act.discard, { key: "discard", cls: "primary", disabled: !canDiscard }));
  }
  if (f.turnOpen && !buyBack && f.moves.includes("knock")) {
    if (family === "gin") {
      const ok = one !== null && (you.knock_discards || []).includes(one);
      controls.push(button(t("Knock, discarding selected"), () => act.knock(one), { key: "knock", disabled: !f.canAct || !ok }));
      controls.push(button(you.deadwood === 0 ? t("Go gin") : t("Knock with %(n)s", { n: you.deadwood }), () => act.knock(null),
        { key: "knock-best", cls: "primary", disabled: !f.canAct || !(you.knock_discards || []).length || draft.melds.length > 0,
          title: t("The best discard and melds are chosen for you") }));
    } else if (family === "knock") {
      const ok = Boolean(you.knock) && one !== null && discardable.has(faceOf(one));
      controls.push(button(t("Knock, discarding selected"), () => act.knock(one), { key: "knock", disabled: !f.canAct || !ok }));
      if (you.knock) {
        controls.push(button(t("Knock: discard %(card)s", { card: cardShort(you.knock.card) }), () => act.knock(you.knock.card),
          { key: "knock-best", cls: "primary", disabled: !f.canAct, title: t("End the deal: discard %(card)s", { card: cardName(you.knock.card, "acc") }) }));
      }
    }
  }
  if (f.turnOpen && step === "reply" && f.moves.includes("pass")) {
    controls.push(button(t("Done"), act.pass, { key: "pass", disabled: !f.canAct, title: t("Lay the rest as well as it goes and count my hand") }));
  }
  if (f.seated && selected.length === 1 && model.rack.slots.includes(selected[0])) {
    controls.push(button(model.moving ? t("Tap a slot or a card") : t("Move"), act.startMove,
      { key: "move", cls: `quiet small${model.moving ? " pressed" : ""}`, ariaLabel: t("Move the selected card: tap where it goes"),
        ariaExpanded: Boolean(model.moving) }));
  }
  if (selected.length) controls.push(button(t("Unselect"), act.unselect, { key: "unselect", cls: "quiet small" }));

  // Nothing to press (another seat's turn): the bar is its hint line alone and the rack below
  // the cards gets its height (table.css), so nothing on the table moves when the turn comes.
  return h(
    "div",
    { class: `controls${controls.length ? "" : " idle"}`, id: "controls" },
    controls.length ? h("div", { class: "buttons" }, controls) : null,
    h("p", { class: "hint", id: "hint", title: hintText(model, f, step) || null }, hintText(model, f, step)),
    errorHere(model, f, "controls"),
  );
}

function hintText(model, f, step) {
  const { view, family, moves } = f;
  if (model.pending) return t("Sending…");
  if (model.status !== "live") return t("Waiting for the connection…");
  if (f.paused) return t("Moves resume after the pause.");
  if (f.over) return "";
  if (!f.myTurn) return t("Waiting for %(name)s.", { name: seatName(view, view.turn) });
  if (family === "gin") {
    if (step === "offer") return t("Take the up-card into your hand, or pass.");
    if (step === "reply") return t("Select cards to add to a table meld or make a new meld, then lay down; press Done when you have finished.");
    if (view.phase === "draw") return moves.includes("take") ? t("Draw from the stock, or take the top face-up card.") : t("Draw from the stock.");
    if (moves.includes("knock")) {
      return t("Select one card to discard, or knock: with the selected card, or with the best discard chosen for you. To lay melds of your choice, make them first.");
    }
    return t("Select one card to discard.");
  }
  if (family === "knock") {
    if (step === "buy_back") return t("Buy back in, or stay out.");
    if (view.phase === "draw") {
      const take = moves.includes("take") ? t("Draw from the stock, or take the top discard") : t("Draw from the stock");
      return step === "exchange" ? t("%(what)s, then discard; or pass.", { what: take }) : `${take}.`;
    }
    return moves.includes("knock") ? t("Select one card to discard, or knock to end the deal.") : t("Select one card to discard.");
  }
  if (f.taking) return t("Select cards (the taken one included) and make a new meld, then take and lay down.");
  if (view.phase === "draw") return moves.includes("take") ? t("Draw from the stock, or pick a discard to take.") : t("Draw from the stock.");
  if (moves.includes("play")) return t("Select cards to make melds, add to table melds or swap a joker; select one card to discard.");
  return t("Select one card to discard.");
}

export function renderScores(model, f) {
  const { view, family } = f;
  const rounds = view.scores.rounds;
  const word = roundWord(family);
  const head = h("tr", {}, h("th", { scope: "col" }, word), view.names.map((n) => h("th", { scope: "col" }, n)));
  const rows = rounds.map((r) =>
    h("tr", { class: r.ended === "void" ? "void" : "" }, h("th", { scope: "row" }, r.ended === "void" ? t("%(n)s (void)", { n: r.round }) : String(r.round)),
      view.names.map((_, seat) => {
        const line = r.lines.find((l) => l.seat === seat);
        return h("td", { title: line ? lineDetail(view, line) : "" }, line ? pointsText(view, line.points) : "–");
      })));
  const totals = h("tr", { class: "totals-row" }, h("th", { scope: "row" }, family === "knock" ? t("Record") : t("Total")),
    view.names.map((_, seat) => h("td", {}, String(view.scores.totals[seat]))));
  const foot = scoreFootRows(f);
  return [
    h("h2", {}, t("Scores")),
    h("p", { class: "aside", id: "scoring" }, scoringText(view, family)),
    h("table", { class: "table scores-table" }, h("thead", {}, head), h("tbody", {}, rows, totals),
      foot.length ? h("tfoot", {}, foot) : null),
    scoreExtras(model, f),
    fairDeal(view, family),
    rounds.length
      ? h("details", { class: "round-details", dataset: { keep: "round-details" } }, h("summary", {}, t("Every %(round)s’s lines", { round: word.toLowerCase() })),
          rounds.slice().reverse().map((r) => h("div", {}, h("h3", {}, `${word} ${r.round}`), roundLines(view, r))))
      : h("p", { class: "aside" }, t("No %(round)s finished yet.", { round: word.toLowerCase() })),
    f.over
      ? h("p", { class: "winners" }, (view.winners || []).length
        ? [h("strong", {}, `${t("Winners:")} `), view.winners.map((s) => seatName(view, s)).join(", ")]
        : h("strong", {}, t("No winner.")))
      : null,
  ];
}

/** The fair-deal line: the commitment (SHA-256 of the seed) of the deal being played, published
 * before anyone plays, and the seed itself once the match is over; the match page and /verify/
 * check them. */
function fairDeal(view, family) {
  if (!view.commitment) return null;
  const short = (hex) => h("code", { title: hex }, `${hex.slice(0, 16)}…`);
  return h("p", { class: "aside fair-deal", id: "fair-deal", dataset: { commitment: view.commitment } },
    `${t("Fair deal")} · ${roundWord(family)} ${view.round}: `, t("commitment (SHA-256 of the seed)"), " ", short(view.commitment),
    view.revealed_seed ? [" · ", t("seed revealed"), " ", short(view.revealed_seed)] : null);
}

/**
 * A stand-in's move, in the third person with the bot as its subject ("the bot for Ala discards
 * …"): never "you …" (even on the page of the seat it plays for) and the player named once.
 */
export function describeStandin(view, seat, events) {
  const names = [...view.names];
  names[seat] = t("the bot for %(name)s", { name: seatName(view, seat) });
  return describeEvents({ ...view, seat: null, names }, events);
}

/** One line about what just happened, from the frame's events. */
export function describeEvents(view, events) {
  const out = [];
  const list = events || [];
  const drewCard = new Set(list.filter((e) => e.kind === "drew_card").map((e) => e.seat));
  for (const e of list) {
    const who = seatName(view, e.seat);
    if (e.kind === "drew" && drewCard.has(e.seat)) continue; // "you drew <card>" says it
    const special = describeFamilyEvent(view, e);
    if (special !== undefined) {
      out.push(special);
      continue;
    }
    // The player's own moves are whole sentences of their own, so that Polish and Romanian can
    // conjugate the verb ("dobierasz", "ai tras"); the others' moves name the player.
    const me = view.seat !== null && e.seat === view.seat;
    switch (e.kind) {
      case "drew": out.push(me ? t("you drew from the stock") : t("%(who)s drew from the stock", { who })); break;
      // Only the seat itself sees its card; a stand-in's line tells it in the third person.
      case "drew_card": out.push(me ? t("you drew %(card)s", { card: cardName(e.card, "acc") }) : t("%(who)s drew %(card)s", { who, card: cardName(e.card, "acc") })); break;
      case "took": {
        const card = cardName(e.card, "acc");
        if (e.depth > 1) {
          out.push(me
            ? tn("you took %(card)s and %(n)s more card from the discards", "you took %(card)s and %(n)s more cards from the discards", e.depth - 1, { card })
            : tn("%(who)s took %(card)s and %(n)s more card from the discards", "%(who)s took %(card)s and %(n)s more cards from the discards", e.depth - 1, { who, card }));
        } else {
          out.push(me ? t("you took %(card)s from the discards", { card }) : t("%(who)s took %(card)s from the discards", { who, card }));
        }
        break;
      }
      case "melded": {
        const cards = e.cards.map(cardShort).join(" ");
        out.push(me ? t("you laid %(cards)s", { cards }) : t("%(who)s laid %(cards)s", { who, cards }));
        break;
      }
      case "laid_off": {
        const cards = e.cards.map(cardShort).join(" ");
        out.push(me ? t("you added %(cards)s to meld %(id)s", { cards, id: e.meld }) : t("%(who)s added %(cards)s to meld %(id)s", { who, cards, id: e.meld }));
        break;
      }
      case "joker_exchanged": out.push(me ? t("you swapped %(card)s for a joker", { card: cardShort(e.card) }) : t("%(who)s swapped %(card)s for a joker", { who, card: cardShort(e.card) })); break;
      case "discarded": out.push(me ? t("you discarded %(card)s", { card: cardName(e.card, "acc") }) : t("%(who)s discarded %(card)s", { who, card: cardName(e.card, "acc") })); break;
      case "round_over": out.push(roundOverText(view, e)); break;
      case "match_over": out.push(t("the match is over")); break;
      case "stock_rebuilt": out.push(t("the stock was rebuilt from the discards")); break;
      default: break;
    }
  }
  return out.join("; ");
}

function roundOverText(view, e) {
  return roundOverLine(view, e);
}
