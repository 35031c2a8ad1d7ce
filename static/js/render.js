// Building the table's DOM from the model. No rules here: what is enabled comes from the
// view's `you` hints, and what is legal is answered by the server.

import { cardFace, cardName, cardShort, declarationChoices, parseCard } from "./cards.js";
import { h } from "./dom.js";
import { pool as draftPool, hasPlay, isEmpty, usedKeys } from "./draft.js";

/** Variants whose discards form a row a player may reach into (the rest: only the top card). */
const ROW_VARIANTS = new Set(["remi", "rummy500"]);

// --- small pieces --------------------------------------------------------------------------------

/** A card. Interactive when `onclick` is given (a button), otherwise an image with a name. */
export function cardEl(text, options = {}) {
  const { onclick, key, pressed, note, classes = "", label, disabled } = options;
  const face = cardFace(text);
  const card = parseCard(text);
  const name = label || cardName(text);
  const cls = [
    "card",
    face.red ? "red" : "black",
    face.joker ? "joker" : "",
    options.consumed ? "consumed" : "",
    classes,
  ]
    .filter(Boolean)
    .join(" ");
  const body = [
    h("span", { class: "card-rank", "aria-hidden": "true" }, face.rank),
    h("span", { class: "card-suit", "aria-hidden": "true" }, face.suit),
    face.standsFor
      ? h("span", { class: `card-as ${face.standsFor.red ? "red" : ""}`, "aria-hidden": "true" },
          face.standsFor.rank + face.standsFor.suit)
      : null,
    note ? h("span", { class: "card-note", "aria-hidden": "true" }, note) : null,
  ];
  const data = { card: card ? card.text : text };
  if (onclick) {
    return h(
      "button",
      {
        type: "button",
        class: cls,
        "aria-label": name,
        "aria-pressed": pressed === undefined ? null : String(Boolean(pressed)),
        dataset: { ...data, key: key || `card:${text}` },
        disabled,
        onclick,
      },
      body,
    );
  }
  return h("span", { class: cls, role: "img", "aria-label": name, dataset: data }, body);
}

function button(label, onclick, { key, disabled, cls = "", title, ariaLabel } = {}) {
  return h(
    "button",
    { type: "button", class: `tbtn ${cls}`.trim(), dataset: { key: key || `btn:${label}` }, disabled, title,
      "aria-label": ariaLabel, onclick },
    label,
  );
}

export function formatSeconds(total) {
  const s = Math.max(0, Math.ceil(total));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

function seatName(view, seat) {
  return seat === null || seat === undefined ? "nobody" : view.names[seat] || `seat ${seat + 1}`;
}

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
  // Building melds is possible while a take is being put together, or in the play phase.
  const canBuild = turnOpen && (taking || moves.includes("play"));
  return { view, you, seated, clock, paused, over, myTurn, moves, busy, turnOpen, canAct, canBuild, taking, now };
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
  else if (f.myTurn) {
    if (view.phase === "draw") turn = "Your turn: draw a card";
    else if (!f.moves.includes("play")) turn = "Your turn: discard a card";
    else turn = "Your turn: lay down, then discard";
  } else turn = `${seatName(view, view.turn)}’s turn`;
  return [
    h("span", { class: `conn ${conn[1]}`, role: "status", id: "conn-status" }, conn[0]),
    login,
    h("span", { class: `turn-line${f.myTurn && !f.paused ? " mine" : ""}`, id: "turn-line" }, turn),
    h("span", { class: "round-line" }, `Round ${view.round}`),
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
    );
  }
  if (f.paused) {
    const last = rounds[rounds.length - 1];
    const left = (f.clock.resume_at - f.now) / 1000;
    return h(
      "div",
      { class: "banner banner-pause", role: "status" },
      h("p", {}, h("strong", {}, last ? `Round ${last.round} is over. ` : "Pause. "),
        "Next round in ", h("span", { id: "pause-countdown" }, formatSeconds(left)), "."),
      last ? roundLines(view, last) : null,
    );
  }
  return null;
}

function totalsText(view) {
  return view.names.map((name, seat) => `${name} ${view.scores.totals[seat]}`).join(" · ");
}

function lineDetail(line) {
  const parts = [`hand ${line.hand}`, `table ${line.table}`];
  if (line.bonus) parts.push(`bonus ${line.bonus}`);
  if (line.atu_bonus) parts.push(`atu ${line.atu_bonus}`);
  if (line.multiplier && line.multiplier !== 1) parts.push(`×${line.multiplier}`);
  return parts.join(", ") + (line.notes && line.notes.length ? `; ${line.notes.join("; ")}` : "");
}

function roundLines(view, round) {
  return h(
    "ul",
    { class: "round-lines" },
    round.lines.map((line) =>
      h("li", {}, h("strong", {}, `${seatName(view, line.seat)}: ${line.points > 0 && !view.lower_wins ? "+" : ""}${line.points}`),
        ` (${lineDetail(line)}) → total ${round.totals[line.seat]}`),
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
        return h(
          "li",
          {
            class: `player${toMove ? " to-move" : ""}${seat === view.seat ? " me" : ""}`,
            "aria-current": toMove ? "true" : null,
            dataset: { seat: String(seat) },
          },
          h("span", { class: "player-name" }, name, seat === view.seat ? " (you)" : ""),
          h("span", { class: "player-cards", title: "cards in hand" }, `${view.hand_sizes[seat]} cards`),
          view.opened[seat] ? h("span", { class: "badge" }, "opened") : null,
          h("span", { class: "player-total", title: "total" }, String(view.scores.totals[seat])),
          toMove ? h("span", { class: "to-move-mark" }, "to move") : null,
        );
      }),
    ),
  ];
}

export function renderBoard(model, f, act) {
  const { view } = f;
  const row = ROW_VARIANTS.has(view.variant);
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
          ? cardEl(c, { key: `take:${c}`, label: `take ${cardName(c)} from the discards`, onclick: () => act.startTake(c), classes: `${classes} takeable`, disabled: !f.canAct })
          : cardEl(c, { classes });
        return h("li", {}, el);
      }),
    );
  }
  const pileNote = !row && view.discard.length > 1 ? h("p", { class: "aside" }, `${view.discard.length} cards in the pile`) : null;

  return [
    h("h2", { class: "visually-hidden" }, "Table"),
    h("div", { class: "stock-row" }, stock, atu,
      h("div", { class: "discard-box" }, h("span", { class: "label" }, row ? "Discard row" : "Discard pile"), pile, pileNote)),
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
      const label = `${seatName(view, meld.owner)} · ${meld.kind} · ${meld.points} pts`;
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

  const hand = h(
    "ul",
    { class: "hand", id: "hand", "aria-label": "your hand" },
    shown.map((item) => {
      const note = { picked: "taken", along: "comes along", freed: "from table", atu: "atu" }[item.source] || (fresh.has(item.key) ? "new" : null);
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
  const { you, view } = f;
  const draft = model.draft;
  const selected = model.selected;
  const handSet = new Set(view.hand);
  const discardable = you ? new Set(you.discards) : new Set();
  const canDiscard = f.canAct && f.moves.includes("discard") && selected.length === 1 && handSet.has(selected[0]) && discardable.has(selected[0]);
  const canSubmit = f.canAct && hasPlay(draft) && (f.taking || f.moves.includes("play"));
  const controls = [];
  if (f.turnOpen && f.moves.includes("draw") && !f.taking) {
    controls.push(button("Draw from stock", act.draw, { key: "draw", cls: "primary", disabled: !f.canAct }));
  }
  if (f.canBuild) {
    controls.push(button("New meld from selected", act.newMeld, { key: "new-meld", disabled: !f.canAct || !selected.length }));
    controls.push(button(f.taking ? "Take and lay down" : "Lay down", act.submit, { key: "submit", cls: "primary", disabled: !canSubmit }));
    if (!isEmpty(draft)) controls.push(button(f.taking ? "Cancel take" : "Clear", act.clear, { key: "clear", cls: "quiet", disabled: !f.canAct }));
  }
  if (f.turnOpen && f.moves.includes("discard")) {
    controls.push(button("Discard selected", act.discard, { key: "discard", cls: "primary", disabled: !canDiscard }));
  }
  if (selected.length) controls.push(button("Unselect", act.unselect, { key: "unselect", cls: "quiet small" }));

  let hint = "";
  if (model.pending) hint = "Sending…";
  else if (model.status !== "live") hint = "Waiting for the connection…";
  else if (f.paused) hint = "Moves resume after the pause.";
  else if (f.over) hint = "";
  else if (!f.myTurn) hint = `Waiting for ${seatName(view, view.turn)}.`;
  else if (f.taking) hint = "Select cards (the taken one included) and make a new meld, then take and lay down.";
  else if (view.phase === "draw") hint = f.moves.includes("take") ? "Draw from the stock, or pick a discard to take." : "Draw from the stock.";
  else if (f.moves.includes("play")) hint = "Select cards to make melds, add to table melds or swap a joker; select one card to discard.";
  else hint = "Select one card to discard.";

  return h(
    "div",
    { class: "controls", id: "controls" },
    h("div", { class: "buttons" }, controls),
    h("p", { class: "hint", id: "hint" }, hint),
    h("div", { class: "error", id: "move-error", role: "alert" },
      model.error ? [h("strong", {}, model.error.message), " ", h("code", {}, model.error.code)] : null),
  );
}

export function renderScores(model, f) {
  const { view } = f;
  const rounds = view.scores.rounds;
  const head = h("tr", {}, h("th", { scope: "col" }, "Round"), view.names.map((n) => h("th", { scope: "col" }, n)));
  const rows = rounds.map((r) =>
    h("tr", {}, h("th", { scope: "row" }, String(r.round)),
      view.names.map((_, seat) => {
        const line = r.lines.find((l) => l.seat === seat);
        return h("td", { title: line ? lineDetail(line) : "" }, line ? String(line.points) : "–");
      })));
  const totals = h("tr", { class: "totals-row" }, h("th", { scope: "row" }, "Total"),
    view.names.map((_, seat) => h("td", {}, String(view.scores.totals[seat]))));
  return [
    h("h2", {}, "Scores"),
    h("p", { class: "aside" }, view.lower_wins ? "Penalty points: the lowest total wins." : "Points: the highest total wins."),
    h("table", { class: "table scores-table" }, h("thead", {}, head), h("tbody", {}, rows, totals)),
    rounds.length
      ? h("details", { class: "round-details" }, h("summary", {}, "Every round’s lines"),
          rounds.slice().reverse().map((r) => h("div", {}, h("h3", {}, `Round ${r.round}`), roundLines(view, r))))
      : h("p", { class: "aside" }, "No round finished yet."),
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
    switch (e.kind) {
      case "drew": out.push(`${who} drew from the stock`); break;
      case "drew_card": out.push(`you drew ${cardName(e.card)}`); break;
      case "took": out.push(`${who} took ${cardName(e.card)}${e.depth > 1 ? ` and ${e.depth - 1} more` : ""} from the discards`); break;
      case "melded": out.push(`${who} laid ${e.cards.map(cardShort).join(" ")}`); break;
      case "laid_off": out.push(`${who} added ${e.cards.map(cardShort).join(" ")} to meld ${e.meld}`); break;
      case "joker_exchanged": out.push(`${who} swapped ${cardShort(e.card)} for a joker`); break;
      case "discarded": out.push(`${who} discarded ${cardName(e.card)}`); break;
      case "round_over": out.push(`round ${e.round} is over${e.winner !== null && e.winner !== undefined ? `: ${seatName(view, e.winner)} went out` : ""}`); break;
      case "match_over": out.push("the match is over"); break;
      case "stock_rebuilt": out.push("the stock was rebuilt from the discards"); break;
      default: break;
    }
  }
  return out.join("; ");
}
