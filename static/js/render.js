// Building the table's DOM from the model. No rules here: what is enabled comes from the
// view's `you` hints, and what is legal is answered by the server.

import { cardName, cardShort, declarationChoices, faceOf, parseCard } from "./cards.js";
import { h } from "./dom.js";
import { pool as draftPool, hasPlay, isEmpty, usedKeys } from "./draft.js";
import {
  boardInfo,
  describeFamilyEvent,
  familyOf,
  isRow,
  lastDealSummary,
  lineDetail,
  meldLabel,
  mineInfo,
  overText,
  playerBadges,
  pointsText,
  roundWord,
  scoreExtras,
  scoreFootRows,
  scoringText,
  takeAlone,
  takenCard,
  totalTitle,
  turnText,
} from "./families.js";
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

export function renderStatus(model, f) {
  const { view } = f;
  const conn = {
    connecting: ["Connecting…", "conn-wait"],
    live: ["Live", "conn-live"],
    reconnecting: ["Reconnecting…", "conn-wait"],
    closed: [`Offline${model.statusDetail ? ` (${model.statusDetail})` : ""}`, "conn-off"],
    anonymous: ["Not logged in", "conn-off"],
  }[model.status] || [model.status, "conn-wait"];
  const login = model.status === "anonymous" && model.loginUrl
    ? h("a", { href: model.loginUrl, class: "login-link" }, "Log in to follow the game live")
    : null;
  let turn;
  if (f.over) turn = "The match is over";
  else if (f.paused) turn = "Pause between rounds";
  else turn = turnText(f);
  return [
    h("span", { class: `conn ${conn[1]}`, role: "status", id: "conn-status" }, conn[0]),
    login,
    h("span", { class: `turn-line${f.myTurn && !f.paused ? " mine" : ""}`, id: "turn-line" }, turn),
    h("span", { class: "round-line" }, `${roundWord(f.family)} ${view.round}`),
    h("span", { class: "timer", id: "turn-timer", "aria-label": "time left for this turn" }, timerText(model, f)),
  ];
}

/** The turn timer text: counting down turn_seconds from turn_started; "" without a clock. */
export function timerText(model, f) {
  const clock = f.clock;
  if (!clock || f.over || f.paused || !clock.turn_seconds || !clock.turn_started) return "";
  const left = clock.turn_seconds - (f.now - clock.turn_started) / 1000;
  return `${formatSeconds(left)} left`;
}

export function renderBanner(model, f) {
  const { view } = f;
  const rounds = view.scores.rounds;
  if (f.over) {
    const winners = (view.winners || []).map((s) => seatName(view, s));
    return h(
      "div",
      { class: "banner banner-over", role: "status" },
      h("strong", {}, "Match over. "),
      winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}.` : "",
      " ",
      h("span", { class: "totals" }, totalsText(view)),
      overText(f) ? h("p", { class: "over-extra" }, overText(f)) : null,
      rounds.length ? h("details", { class: "last-deal", dataset: { keep: "banner-last-deal" } }, h("summary", {}, `How ${roundWord(f.family).toLowerCase()} ${rounds[rounds.length - 1].round} ended`),
        roundLines(view, rounds[rounds.length - 1])) : null,
    );
  }
  if (f.paused) {
    const last = rounds[rounds.length - 1];
    const left = (f.clock.resume_at - f.now) / 1000;
    return h(
      "div",
      { class: "banner banner-pause", role: "status" },
      h("p", {}, h("strong", {}, last ? `${roundWord(f.family)} ${last.round} is over. ` : "Pause. "),
        `Next ${roundWord(f.family).toLowerCase()} in `, h("span", { id: "pause-countdown" }, formatSeconds(left)), "."),
      last ? roundLines(view, last) : null,
      last ? lastDealSummary(model, f) : null,
    );
  }
  return null;
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
        ` (${lineDetail(view, line)}) → total ${round.totals[line.seat]}`),
    ),
  );
}

export function renderPlayers(model, f) {
  const { view } = f;
  return [
    h("h2", { class: "visually-hidden" }, "Players"),
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
          h("span", { class: "player-name" }, name, seat === view.seat ? " (you)" : ""),
          h("span", { class: "player-cards", title: "cards in hand" }, `${view.hand_sizes[seat]} cards`),
          playerBadges(f, seat),
          h("span", { class: "player-total", title: totalTitle(f.family) }, String(view.scores.totals[seat])),
          toMove ? h("span", { class: "to-move-mark" }, "to move") : null,
        );
      }),
    ),
  ];
}

export function renderBoard(model, f, act) {
  const { view } = f;
  const row = isRow(view);
  const alone = takeAlone(f.family);
  const takeable = f.you && f.turnOpen && f.moves.includes("take") ? f.you.takeable : [];
  const canDraw = f.turnOpen && f.moves.includes("draw") && !f.taking;

  const stock = canDraw
    ? button(`Stock · ${view.stock_size}`, act.draw, { key: "stock", cls: "stock stock-live", disabled: !f.canAct, ariaLabel: `Draw from the stock (${view.stock_size} cards)` })
    : h("div", { class: "stock", role: "img", "aria-label": `stock: ${view.stock_size} cards` }, `Stock · ${view.stock_size}`);

  // The atu (Remi) can be pulled into a new meld in the going-out move: selectable like a hand card.
  let atuCard = null;
  if (view.atu) {
    const free = view.atu_taken_by === null;
    const placed = usedKeys(model.draft).has(view.atu);
    atuCard = free && f.canBuild && !placed
      ? cardEl(view.atu, { key: `hand:${view.atu}`, pressed: model.selected.includes(view.atu), onclick: () => act.toggle(view.atu),
          label: `atu, ${cardName(view.atu)}: select it for a new meld`, classes: "src-atu", disabled: !f.canAct })
      : cardEl(view.atu, { classes: placed ? "placed" : "" });
  }
  const atu = view.atu
    ? h("div", { class: "atu" }, h("span", { class: "label" }, "Atu"), atuCard,
        view.atu_taken_by !== null ? h("span", { class: "aside" }, ` taken by ${seatName(view, view.atu_taken_by)}`) : null)
    : null;

  const pickedIndex = f.taking ? view.discard.lastIndexOf(model.draft.take) : -1;
  let pile;
  if (!view.discard.length) pile = h("p", { class: "aside" }, "No discards yet.");
  else {
    const shown = row ? view.discard.map((c, i) => [c, i]) : [[view.discard[view.discard.length - 1], view.discard.length - 1]];
    pile = h(
      "ol",
      { class: `discards${row ? " row" : ""}`, "aria-label": row ? "discard row, oldest first" : "top of the discard pile" },
      shown.map(([c, i]) => {
        const coming = pickedIndex >= 0 && i >= pickedIndex;
        const classes = coming ? (i === pickedIndex ? "picked" : "along") : "";
        const canTake = takeable.includes(c) && !f.taking;
        const el = canTake
          ? cardEl(c, { key: `take:${c}`, label: `take ${cardName(c)} from the discards`, onclick: () => (alone ? act.take(c) : act.startTake(c)),
              classes: `${classes} takeable`, disabled: !f.canAct })
          : cardEl(c, { classes });
        return h("li", {}, el);
      }),
    );
  }
  const pileNote = !row && view.discard.length > 1 ? h("p", { class: "aside" }, `${view.discard.length} cards in the pile`) : null;

  return [
    h("h2", { class: "visually-hidden" }, "Table"),
    h("div", { class: "stock-row" }, stock, atu,
      h("div", { class: "discard-box" }, h("span", { class: "label" }, row ? "Discard row" : f.family === "gin" ? "Face-up pile" : "Discard pile"), pile, pileNote)),
    boardInfo(model, f),
    renderMelds(model, f, act),
  ];
}

function renderMelds(model, f, act) {
  const { view } = f;
  if (!view.melds.length) return h("p", { class: "aside melds-empty" }, "No melds on the table yet.");
  const selected = model.selected;
  const consumed = new Set(view.consumed_jokers || []);
  return h(
    "ul",
    { class: "table-melds", "aria-label": "melds on the table" },
    view.melds.map((meld) => {
      const hasJoker = meld.cards.some((c) => parseCard(c)?.joker);
      const label = meldLabel(f, meld);
      const tools = f.canBuild
        ? h("span", { class: "meld-tools" },
            button("Add selected", () => act.layoff(meld.id), { key: `layoff:${meld.id}`, disabled: !f.canAct || !selected.length, cls: "small",
              ariaLabel: `add the selected cards to meld ${meld.id} (${label})` }),
            hasJoker
              ? button("Swap for joker", () => act.exchange(meld.id), { key: `exchange:${meld.id}`, disabled: !f.canAct || selected.length !== 1, cls: "small",
                  ariaLabel: `put the selected card in place of the joker in meld ${meld.id}` })
              : null)
        : null;
      return h(
        "li",
        { class: "table-meld", dataset: { meld: String(meld.id) } },
        h("span", { class: "meld-label" }, label),
        h("span", { class: "meld-cards" },
          meld.cards.map((c) => cardEl(c, { consumed: consumed.has(parseCard(c)?.id), note: consumed.has(parseCard(c)?.id) ? "used" : null }))),
        tools,
      );
    }),
  );
}

export function renderMine(model, f, act) {
  if (!f.seated) {
    return [h("p", { class: "notice spectator-note" }, "You are watching: nobody’s hand is shown.")];
  }
  const { view, you } = f;
  const handOrder = model.handOrder();
  const building = f.canBuild || !isEmpty(model.draft);
  const items = building ? draftPool(model.draft, view, handOrder) : handOrder.map((id) => ({ key: id, wire: id, source: "hand" }));
  const shown = items.filter((item) => item.source !== "atu"); // the atu stays beside the stock
  const selected = new Set(model.selected);
  const fresh = new Set(model.fresh);
  const taken = takenCard(f);

  const hand = h(
    "ul",
    { class: "hand", id: "hand", "aria-label": "your hand" },
    shown.map((item) => {
      const note = { picked: "taken", along: "comes along", freed: "from table", atu: "atu" }[item.source]
        || (taken && item.key === taken ? "taken" : fresh.has(item.key) ? "new" : null);
      const text = item.source === "freed" ? "JK" : item.key;
      const label = `${cardName(text)}${item.source === "freed" ? " freed by the exchange" : ""}${note && item.source !== "freed" ? ` (${note})` : ""}`;
      return h("li", {},
        cardEl(text, { key: `hand:${item.key}`, pressed: selected.has(item.key), label, note, classes: `in-hand src-${item.source}`,
          onclick: () => act.toggle(item.key) }));
    }),
  );

  return [
    h("div", { class: "mine-head" },
      h("h2", { id: "hand-title" }, `Your hand (${view.hand.length})`),
      button(`Sort by ${model.sortMode === "suit" ? "rank" : "suit"}`, act.toggleSort, { key: "sort", cls: "small quiet" })),
    you && you.opening ? renderOpening(model, f, act) : null,
    mineInfo(model, f),
    renderDraft(model, f, act),
    hand,
    renderControls(model, f, act),
  ];
}

function renderOpening(model, f, act) {
  const o = f.you.opening;
  const run = o.required_run === "pure" ? "a pure run" : o.required_run === "any" ? "a run" : null;
  const need = [o.required_points ? `${o.required_points} points` : null, run].filter(Boolean).join(" with ");
  const missing = o.missing.map((m) => ({ points: "more points", pure_run: "a pure run", run: "a run" }[m] || m));
  const usable = f.canBuild && f.canAct && o.melds.length > 0 && !model.draft.melds.length;
  return h(
    "div",
    { class: "opening", id: "opening" },
    h("p", {},
      h("strong", {}, "Opening: "),
      `you need ${need || "a meld"}. Your best melds are worth ${o.best_points}`,
      o.ready ? " — ready to open." : missing.length ? ` — missing ${missing.join(" and ")}.` : "."),
    o.melds.length
      ? h("p", { class: "suggested" }, "Suggested: ",
          o.melds.map((meld) => h("span", { class: "suggested-meld" }, meld.map(cardShort).join(" "))))
      : null,
    button("Use suggested opening", act.useOpening, { key: "use-opening", disabled: !usable }),
  );
}

function renderDraft(model, f, act) {
  const draft = model.draft;
  if (isEmpty(draft)) return null;
  const { view } = f;
  const take = draft.take
    ? h("p", { class: "draft-take" }, "Taking ", cardEl(draft.take), (() => {
        const along = view.discard.slice(view.discard.lastIndexOf(draft.take) + 1);
        return along.length ? ` with ${along.length} card${along.length > 1 ? "s" : ""} that come along (${along.map(cardShort).join(" ")})` : "";
      })(), ". Use it in a new meld in this move.")
    : null;
  const textOf = (key) => (key.startsWith("freed:") ? "JK" : key);
  const decl = (key, beside) => {
    if (!parseCard(textOf(key))?.joker) return null;
    const choices = declarationChoices(beside.map(textOf));
    return h("label", { class: "decl" }, h("span", { class: "visually-hidden" }, "joker stands for"),
      h("select", { dataset: { key: `decl:${key}` }, "aria-label": "joker stands for", onchange: (e) => act.declare(key, e.target.value) },
        h("option", { value: "" }, "★ = auto"),
        choices.map((face) => h("option", { value: face, selected: draft.declared[key] === face }, `★ = ${cardShort(face)}`))));
  };
  const melds = draft.melds.map((meld, mi) =>
    h("li", { class: "draft-meld" },
      h("span", { class: "label" }, `New meld ${mi + 1}`),
      h("span", { class: "meld-cards" }, meld.map((key, ci) =>
        h("span", { class: "draft-card" },
          cardEl(textOf(key) + (draft.declared[key] ? `(${draft.declared[key]})` : "")),
          h("span", { class: "shift" },
            button("◀", () => act.shift(mi, ci, -1), { key: `shift:${mi}:${ci}:-1`, cls: "tiny", disabled: ci === 0, ariaLabel: `move ${cardName(textOf(key))} left` }),
            button("▶", () => act.shift(mi, ci, 1), { key: `shift:${mi}:${ci}:1`, cls: "tiny", disabled: ci === meld.length - 1, ariaLabel: `move ${cardName(textOf(key))} right` })),
          decl(key, meld)))),
      button("Remove", () => act.removeMeld(mi), { key: `rm-meld:${mi}`, cls: "small quiet", ariaLabel: `remove new meld ${mi + 1}` })));
  const layoffs = draft.layoffs.map((lo, li) =>
    h("li", { class: "draft-layoff" },
      h("span", { class: "label" }, `Add to meld ${lo.meld}`),
      h("span", { class: "meld-cards" }, lo.cards.map((key) => h("span", { class: "draft-card" }, cardEl(textOf(key)), decl(key, (view.melds.find((m) => m.id === lo.meld) || { cards: [] }).cards)))),
      button("Remove", () => act.removeLayoff(li), { key: `rm-layoff:${li}`, cls: "small quiet", ariaLabel: `remove the addition to meld ${lo.meld}` })));
  const exchanges = draft.exchanges.map((ex, xi) =>
    h("li", { class: "draft-exchange" },
      h("span", { class: "label" }, `Swap into meld ${ex.meld}`), cardEl(ex.card), " for its joker",
      button("Remove", () => act.removeExchange(xi), { key: `rm-ex:${xi}`, cls: "small quiet", ariaLabel: `undo the joker swap in meld ${ex.meld}` })));
  return h("div", { class: "draft", id: "draft", "aria-label": "your move so far" },
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
    controls.push(button("Draw from stock", act.draw, { key: "draw", cls: "primary", disabled: !f.canAct }));
  }
  if (f.turnOpen && takeAlone(family) && f.moves.includes("take") && takeable.length) {
    const card = takeable[takeable.length - 1];
    const offer = step === "offer";
    controls.push(button(offer ? "Take the up-card" : `Take ${cardShort(card)}`, () => act.take(card),
      { key: "take", cls: offer ? "primary" : "", disabled: !f.canAct, ariaLabel: offer ? null : `take ${cardName(card)} from the discards` }));
  }
  if (f.turnOpen && buyBack && f.moves.includes("knock")) {
    const cost = you.buy_back ? ` (${you.buy_back.cost} chips)` : "";
    controls.push(button(`Buy back in${cost}`, act.buyBack, { key: "buy-back", cls: "primary", disabled: !f.canAct }));
    controls.push(button("Stay out", act.pass, { key: "pass", disabled: !f.canAct }));
  } else if (f.turnOpen && f.moves.includes("pass") && step !== "reply") {
    controls.push(button(step === "exchange" ? "Pass (no exchange)" : "Pass", act.pass, { key: "pass", disabled: !f.canAct }));
  }
  if (f.canBuild) {
    controls.push(button("New meld from selected", act.newMeld, { key: "new-meld", disabled: !f.canAct || !selected.length }));
    if (family === "gin" && you.best_melds && you.best_melds.length && !draft.melds.length) {
      controls.push(button("Use best melds", act.useBestMelds, { key: "use-best", disabled: !f.canAct }));
    }
    if (playing) controls.push(button(f.taking ? "Take and lay down" : "Lay down", act.submit, { key: "submit", cls: "primary", disabled: !canSubmit }));
    if (!isEmpty(draft)) controls.push(button(f.taking ? "Cancel take" : "Clear", act.clear, { key: "clear", cls: "quiet", disabled: !f.canAct }));
  }
  if (f.turnOpen && f.moves.includes("discard")) {
    controls.push(button("Discard selected", act.discard, { key: "discard", cls: "primary", disabled: !canDiscard }));
  }
  if (f.turnOpen && !buyBack && f.moves.includes("knock")) {
    if (family === "gin") {
      const ok = one !== null && (you.knock_discards || []).includes(one);
      controls.push(button("Knock, discarding selected", () => act.knock(one), { key: "knock", disabled: !f.canAct || !ok }));
      controls.push(button(you.deadwood === 0 ? "Go gin" : `Knock with ${you.deadwood}`, () => act.knock(null),
        { key: "knock-best", cls: "primary", disabled: !f.canAct || !(you.knock_discards || []).length || draft.melds.length > 0,
          title: "The best discard and melds are chosen for you" }));
    } else if (family === "knock") {
      const ok = Boolean(you.knock) && one !== null && discardable.has(faceOf(one));
      controls.push(button("Knock, discarding selected", () => act.knock(one), { key: "knock", disabled: !f.canAct || !ok }));
      if (you.knock) {
        controls.push(button(`Knock: discard ${cardShort(you.knock.card)}`, () => act.knock(you.knock.card),
          { key: "knock-best", cls: "primary", disabled: !f.canAct, title: `End the deal: discard ${cardName(you.knock.card)}` }));
      }
    }
  }
  if (f.turnOpen && step === "reply" && f.moves.includes("pass")) {
    controls.push(button("Done", act.pass, { key: "pass", disabled: !f.canAct, title: "Lay the rest as well as it goes and count my hand" }));
  }
  if (selected.length) controls.push(button("Unselect", act.unselect, { key: "unselect", cls: "quiet small" }));

  return h(
    "div",
    { class: "controls", id: "controls" },
    h("div", { class: "buttons" }, controls),
    h("p", { class: "hint", id: "hint" }, hintText(model, f, step)),
    h("div", { class: "error", id: "move-error", role: "alert" },
      model.error ? [h("strong", {}, model.error.message), " ", h("code", {}, model.error.code)] : null),
  );
}

function hintText(model, f, step) {
  const { view, family, moves } = f;
  if (model.pending) return "Sending…";
  if (model.status !== "live") return "Waiting for the connection…";
  if (f.paused) return "Moves resume after the pause.";
  if (f.over) return "";
  if (!f.myTurn) return `Waiting for ${seatName(view, view.turn)}.`;
  if (family === "gin") {
    if (step === "offer") return "Take the up-card into your hand, or pass.";
    if (step === "reply") return "Select cards to add to a table meld or make a new meld, then lay down; press Done when you have finished.";
    if (view.phase === "draw") return moves.includes("take") ? "Draw from the stock, or take the top face-up card." : "Draw from the stock.";
    if (moves.includes("knock")) {
      return "Select one card to discard, or knock: with the selected card, or with the best discard chosen for you. To lay melds of your choice, make them first.";
    }
    return "Select one card to discard.";
  }
  if (family === "knock") {
    if (step === "buy_back") return "Buy back in, or stay out.";
    if (view.phase === "draw") {
      const take = moves.includes("take") ? "Draw from the stock, or take the top discard" : "Draw from the stock";
      return step === "exchange" ? `${take}, then discard; or pass.` : `${take}.`;
    }
    return moves.includes("knock") ? "Select one card to discard, or knock to end the deal." : "Select one card to discard.";
  }
  if (f.taking) return "Select cards (the taken one included) and make a new meld, then take and lay down.";
  if (view.phase === "draw") return moves.includes("take") ? "Draw from the stock, or pick a discard to take." : "Draw from the stock.";
  if (moves.includes("play")) return "Select cards to make melds, add to table melds or swap a joker; select one card to discard.";
  return "Select one card to discard.";
}

export function renderScores(model, f) {
  const { view, family } = f;
  const rounds = view.scores.rounds;
  const word = roundWord(family);
  const head = h("tr", {}, h("th", { scope: "col" }, word), view.names.map((n) => h("th", { scope: "col" }, n)));
  const rows = rounds.map((r) =>
    h("tr", { class: r.ended === "void" ? "void" : "" }, h("th", { scope: "row" }, r.ended === "void" ? `${r.round} (void)` : String(r.round)),
      view.names.map((_, seat) => {
        const line = r.lines.find((l) => l.seat === seat);
        return h("td", { title: line ? lineDetail(view, line) : "" }, line ? pointsText(view, line.points) : "–");
      })));
  const totals = h("tr", { class: "totals-row" }, h("th", { scope: "row" }, family === "knock" ? "Record" : "Total"),
    view.names.map((_, seat) => h("td", {}, String(view.scores.totals[seat]))));
  const foot = scoreFootRows(f);
  return [
    h("h2", {}, "Scores"),
    h("p", { class: "aside", id: "scoring" }, scoringText(view, family)),
    h("table", { class: "table scores-table" }, h("thead", {}, head), h("tbody", {}, rows, totals),
      foot.length ? h("tfoot", {}, foot) : null),
    scoreExtras(model, f),
    rounds.length
      ? h("details", { class: "round-details", dataset: { keep: "round-details" } }, h("summary", {}, `Every ${word.toLowerCase()}’s lines`),
          rounds.slice().reverse().map((r) => h("div", {}, h("h3", {}, `${word} ${r.round}`), roundLines(view, r))))
      : h("p", { class: "aside" }, `No ${word.toLowerCase()} finished yet.`),
    f.over ? h("p", { class: "winners" }, h("strong", {}, "Winners: "), (view.winners || []).map((s) => seatName(view, s)).join(", ")) : null,
  ];
}

/** One line about what just happened, from the frame's events. */
export function describeEvents(view, events) {
  const out = [];
  const list = events || [];
  const sawOwnCard = list.some((e) => e.kind === "drew_card");
  for (const e of list) {
    const who = e.seat === view.seat && view.seat !== null ? "you" : seatName(view, e.seat);
    if (e.kind === "drew" && e.seat === view.seat && sawOwnCard) continue; // "you drew <card>" says it
    const special = describeFamilyEvent(view, e);
    if (special !== undefined) {
      out.push(special);
      continue;
    }
    switch (e.kind) {
      case "drew": out.push(`${who} drew from the stock`); break;
      case "drew_card": out.push(`you drew ${cardName(e.card)}`); break;
      case "took": out.push(`${who} took ${cardName(e.card)}${e.depth > 1 ? ` and ${e.depth - 1} more` : ""} from the discards`); break;
      case "melded": out.push(`${who} laid ${e.cards.map(cardShort).join(" ")}`); break;
      case "laid_off": out.push(`${who} added ${e.cards.map(cardShort).join(" ")} to meld ${e.meld}`); break;
      case "joker_exchanged": out.push(`${who} swapped ${cardShort(e.card)} for a joker`); break;
      case "discarded": out.push(`${who} discarded ${cardName(e.card)}`); break;
      case "round_over": out.push(roundOverText(view, e)); break;
      case "match_over": out.push("the match is over"); break;
      case "stock_rebuilt": out.push("the stock was rebuilt from the discards"); break;
      default: break;
    }
  }
  return out.join("; ");
}

function roundOverText(view, e) {
  const word = roundWord(familyOf(view)).toLowerCase();
  const winner = e.winner !== null && e.winner !== undefined ? seatName(view, e.winner) : null;
  if (e.ended === "void") return `${word} ${e.round} is void`;
  if (!winner) return `${word} ${e.round} is over`;
  if (familyOf(view) === "knock") return `${word} ${e.round} is over: ${winner} ended it${e.result ? ` (${e.result.replace(/_/g, " ")})` : ""}`;
  if (familyOf(view) === "gin") return `${word} ${e.round} is over: ${winner} scores`;
  if (e.one_go) return `${word} ${e.round} is over: ${winner} went out in one go${view.variant === "remik40" ? " — Remik!" : ""}`;
  return `${word} ${e.round} is over: ${winner} went out`;
}
