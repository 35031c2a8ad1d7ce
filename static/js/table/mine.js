// The seat's own part of the table: the sort buttons and "Lay down all", the opening and the
// family's facts, the move being built (the draft), the rack and the action bar (controls.js).

import { cardName, cardShort, declarationChoices, parseCard } from "./cards.js";
import { h } from "../dom.js";
import { pool as draftPool, isEmpty } from "./draft.js";
import { laysAll, mineInfo, takenCard } from "./families/index.js";
import { t, tn } from "../i18n.js";
import { blocks } from "./rack.js";
import { renderControls } from "./controls.js";
import { errorHere } from "./render.js";
import { button, cardEl } from "./widgets.js";

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

export const LAY_REASON = {
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
  if (!laysAll(f.family) || f.over) return null;
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
