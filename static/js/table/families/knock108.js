// Knock-108 on the table (games/engine/knock108/cycle.py): the view's `stage` and `stakes`
// (the pool and the chip ledger), `knock`, `buy_back`, `in_game`, `last_deal`; `you` carries
// `loose_points` and a `knock` hint.

import { cardName, cardShort, faceOf } from "../cards.js";
import { h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { button, cardRow, seatName, signed } from "../widgets.js";
import { cap, declaredName, faces, footRow, knockedTitle, who } from "./common.js";
import { placedLabel } from "./gin.js";

/** @type {Family} */
export const knock108 = {
  name: "knock108",
  // A take is a move of its own; a knock lays the best melds (none are arranged by hand).
  takeAlone: true,
  knockMelds: false,
  laysAll: false,
  roundWord: () => t("Deal"),
  step: (view) => view.stage,
  isOut: (view, seat) => !view.in_game[seat],
  pileLabel: () => t("Discard pile"),
  totalTitle: () => t("record (minus points)"),
  totalLabel: () => t("Record"),
  bestMelds: () => false,

  hint(f, step) {
    const { view, moves } = f;
    if (step === "buy_back") return t("Buy back in, or stay out.");
    if (view.phase === "draw") {
      const take = moves.includes("take") ? t("Draw from the stock, or take the top discard") : t("Draw from the stock");
      return step === "exchange" ? t("%(what)s, then discard; or pass.", { what: take }) : `${take}.`;
    }
    return moves.includes("knock") ? t("Select one card to discard, or knock to end the deal.") : t("Select one card to discard.");
  },

  knockControls(f, act, one, discardable) {
    const you = /** @type {You} */ (f.you);
    const ok = Boolean(you.knock) && one !== null && discardable.has(faceOf(one));
    const out = [button(t("Knock, discarding selected"), () => act.knock(one), { key: "knock", disabled: !f.canAct || !ok })];
    if (you.knock) {
      const card = you.knock.card;
      out.push(button(t("Knock: discard %(card)s", { card: cardShort(card) }), () => act.knock(card),
        { key: "knock-best", cls: "primary", disabled: !f.canAct, title: t("End the deal: discard %(card)s", { card: cardName(card, "acc") }) }));
    }
    return out;
  },

  turnText(f, name) {
    const { view, moves } = f;
    const stage = view.stage;
    if (f.myTurn) {
      if (stage === "buy_back") return t("Your turn: buy back in or stay out");
      if (stage === "exchange" && view.phase === "draw") return t("Your turn: extra exchange or pass");
      if (view.phase === "draw") return t("Your turn: draw a card");
      return moves.includes("knock") ? t("Your turn: discard or knock") : t("Your turn: discard a card");
    }
    if (stage === "buy_back") return t("%(name)s decides on buying back in", { name });
    if (stage === "exchange") return t("%(name)s’s extra exchange", { name });
    return t("%(name)s’s turn", { name });
  },

  board(model, f) {
    const { view } = f;
    const stakes = view.stakes;
    const info = h("p", { class: "deal-info", id: "deal-info" },
      h("span", { class: "fact", id: "pool" }, t("Pool %(n)s chips", { n: stakes.pool })),
      h("span", { class: "fact" }, t("stake %(n)s", { n: stakes.stake })),
      h("span", { class: "fact" }, t("knock with at most %(n)s loose points", { n: view.knock_limit })),
      h("span", { class: "fact" }, t("over %(n)s is out", { n: view.limit })));
    let knock = null;
    if (view.knock) {
      const k = view.knock;
      const queue = (k.to_exchange || []).map((s) => who(view, s));
      knock = h("div", { class: "knock-panel", id: "knock-panel" },
        h("p", {}, h("strong", {}, knockedTitle(view, k.seat, k.points))),
        k.loose && k.loose.length
          ? h("p", { class: "loose" }, h("span", { class: "label" }, t("Loose cards (face up)")), cardRow(k.loose, { label: t("the knocker's loose cards") }))
          : null,
        queue.length ? h("p", {}, t("Extra exchange: %(names)s.", { names: queue.join(`, ${t("then")} `) })) : null);
    }
    let buyBack = null;
    if (view.buy_back) {
      const b = view.buy_back;
      buyBack = h("p", { class: "buy-back-panel", id: "buy-back-panel" },
        cap(t("%(names)s may buy back in for %(cost)s chips, with a record of %(record)s.", { names: b.to_decide.map((s) => who(view, s)).join(", "), cost: b.cost, record: b.record })));
    }
    return [info, knock, buyBack];
  },

  meldLabel(f, meld) {
    return placedLabel(f.view, meld);
  },

  badges(f, seat) {
    const { view } = f;
    const out = [];
    if (!view.in_game[seat]) out.push(h("span", { class: "badge out" }, t("out")));
    const chips = view.stakes.chips[seat];
    out.push(h("span", { class: `player-extra chips ${chips < 0 ? "minus" : ""}`, title: t("chips won or paid") }, t("chips %(n)s", { n: signed(chips) })));
    const bought = view.stakes.buy_backs[seat];
    if (bought) out.push(h("span", { class: "player-extra" }, tn("bought back %(n)s×", "bought back %(n)s×", bought)));
    return out;
  },

  mine(f) {
    // Asked only for a seat's own view, with its hand and its `you` hints (index.js, mineInfo).
    const { view } = f;
    const you = /** @type {You} */ (f.you);
    const hand = /** @type {string[]} */ (view.hand);
    const parts = [];
    if (you.stage === "buy_back" && f.myTurn && you.buy_back) {
      const b = you.buy_back;
      parts.push(h("p", {}, h("strong", {}, `${t("You are out with a record of %(n)s.", { n: view.scores.totals[/** @type {number} */ (view.seat)] })} `),
        t("Buy back in for %(cost)s chips: your record becomes %(record)s and you are dealt ten cards. Or stay out.", { cost: b.cost, record: b.record })));
    } else if (!you.in_game) {
      parts.push(h("p", {}, h("strong", {}, t("You are out of the game")), ` ${t("with a record of %(n)s.", { n: view.scores.totals[/** @type {number} */ (view.seat)] })}`));
    } else if (hand.length) {
      parts.push(h("p", {}, h("strong", { id: "loose-points" }, t("Loose points: %(n)s", { n: you.loose_points })), ` ${t("in your hand as it is")}`));
      if (you.knock) {
        const k = you.knock;
        const what = k.kind === "knock" ? t("a knock with %(n)s", { n: k.points }) : declaredName(k.kind);
        parts.push(h("p", { class: "knock-ready", id: "knock-ready" }, h("strong", {}, `${t("You can end the deal:")} `),
          t("discard %(card)s for %(what)s.", { card: cardShort(k.card), what })));
      }
      if (f.myTurn && you.stage === "exchange" && view.knock) {
        parts.push(h("p", {}, cap(t("%(who)s knocked: one extra exchange (draw or take, then discard), or pass.", { who: seatName(view, view.knock.seat) }))));
      }
      if (f.myTurn && you.taken && view.phase === "play") {
        parts.push(h("p", { class: "aside" }, t("You took %(card)s: it stays in your hand this turn.", { card: cardName(you.taken, "acc") })));
      }
    }
    return parts.length ? h("div", { class: "family-info knock-info", id: "knock-info" }, parts) : null;
  },

  taken: (f) => (f.you && f.you.taken) || null,

  scoring(view) {
    return t("Minus points on each record, lowest is best: over %(limit)s a player is out; the last one in takes the pool.", { limit: view.limit });
  },

  lineParts(line) {
    const parts = [t("loose points: %(n)s", { n: line.hand })];
    if (line.bonus) parts.push(t("credit: %(n)s", { n: line.bonus }));
    if (line.chips !== undefined && line.chips !== null) parts.push(t("chips: %(n)s", { n: signed(line.chips) }));
    return parts;
  },

  footRows(f) {
    const { view } = f;
    return [
      footRow(t("Chips"), view.stakes.chips.map(signed), "chips-row"),
      footRow(t("In game"), view.in_game.map((x) => (x ? t("in the game") : t("out of the game"))), "status-row"),
    ];
  },

  extras(model, f) {
    const { view } = f;
    const ledger = view.stakes.ledger || [];
    const out = [h("p", { class: "aside" }, t("Pool: %(pool)s chips · stake %(stake)s.", { pool: view.stakes.pool, stake: view.stakes.stake }))];
    if (ledger.length) {
      out.push(h("details", { class: "ledger", id: "ledger", dataset: { keep: "ledger" } }, h("summary", {}, t("Chip ledger (%(n)s entries)", { n: ledger.length })),
        h("table", { class: "table ledger-table" },
          h("thead", {}, h("tr", {}, [t("Deal"), t("What"), t("From"), t("To"), t("Chips")].map((title) => h("th", { scope: "col" }, title)))),
          h("tbody", {}, ledger.map((e) => h("tr", {},
            h("td", {}, String(e.round)), h("td", {}, e.kind.replace(/_/g, " ")),
            h("td", {}, e.from === "pool" ? t("pool") : seatName(view, e.from)),
            h("td", {}, e.to === "pool" ? t("pool") : seatName(view, e.to)),
            h("td", {}, String(e.amount))))))));
    }
    return out;
  },

  /** The last deal from the view's `last_deal` (each seat's melds and loose cards), if it is the one asked for. */
  lastDeal(view, last) {
    if (!view.last_deal || view.last_deal.round !== last.round) return null;
    const d = view.last_deal;
    return h("ul", { class: "deal-summary" }, d.seats.map((item) =>
      h("li", {}, h("strong", {}, `${seatName(view, item.seat)}: `),
        item.special ? `${declaredName(item.special)} ` : null,
        item.melds.length ? item.melds.map((m) => h("span", { class: "suggested-meld" }, `[${faces(m)}]`)) : null,
        item.loose.length ? ` ${t("loose %(cards)s", { cards: faces(item.loose) })}` : "",
        ` (${item.points})`)));
  },

  overText(f) {
    const { view } = f;
    return t("Chips: %(list)s.", { list: view.names.map((n, seat) => `${n} ${signed(view.stakes.chips[seat])}`).join(" · ") });
  },

  roundOver(view, e, round, winner, declared) {
    return `${t("%(round)s is over: %(who)s ended it", { round, who: winner })}${e.result ? ` (${declared(e.result)})` : ""}`;
  },
};
