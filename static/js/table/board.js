// The middle of the table: the stock, the atu, the discards (the top card or the row) and the
// melds on the table. Presentation only: what is enabled comes from the view's `you` hints.

import { cardName, cardShort, faceOf, parseCard } from "./cards.js";
import { h } from "../dom.js";
import { usedKeys } from "./draft.js";
import { boardInfo, isRow, meldLabel, pileLabel, takeAlone } from "./families/index.js";
import { t, tn } from "../i18n.js";
import { LAY_REASON } from "./mine.js";
import { errorHere } from "./render.js";
import { button, cardEl, seatName } from "./widgets.js";

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
  // The row's older cards are out of sight in its box: a cue says how many (fit.js counts them)
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
        h("span", { class: "label" }, row ? t("Discard row") : pileLabel(f.family)), pile, pileNote, here,
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
