// The gin family on the table (games/engine/gin/cycle.py: gin, oklahoma): the view's `gin`
// block (the up-card offer, the knock limit, the knock and its loose cards, deals won, Oklahoma's
// columns, the settlement); `you` carries `deadwood`, `best_melds`, `knock_discards`.

import { cardName } from "../cards.js";
import { h } from "../../dom.js";
import { meldKind, t, tn } from "../../i18n.js";
import { noteRules, noteText } from "../notes.js";
import { button, cardEl, cardRow, seatName, signed } from "../widgets.js";
import { cap, faces, footRow, knockedTitle, upperFirst, who } from "./common.js";

/** @type {Family} */
export const gin = {
  name: "gin",
  // A take is a move of its own; melds for a knock may be arranged by hand (the engine lays the
  // best ones when none are given).
  takeAlone: true,
  knockMelds: true,
  laysAll: false,
  roundWord: () => t("Deal"),
  step: (view) => view.gin.step,
  isOut: () => false,
  pileLabel: () => t("Face-up pile"),
  totalTitle: () => t("total"),
  totalLabel: () => t("Total"),
  bestMelds: (f) => Boolean(f.you && f.you.best_melds && f.you.best_melds.length),

  hint(f, step) {
    const { view, moves } = f;
    if (step === "offer") return t("Take the up-card into your hand, or pass.");
    if (step === "reply") return t("Select cards to add to a table meld or make a new meld, then lay down; press Done when you have finished.");
    if (view.phase === "draw") return moves.includes("take") ? t("Draw from the stock, or take the top face-up card.") : t("Draw from the stock.");
    if (moves.includes("knock")) {
      return t("Select one card to discard, or knock: with the selected card, or with the best discard chosen for you. To lay melds of your choice, make them first.");
    }
    return t("Select one card to discard.");
  },

  knockControls(f, act, one, _discardable, draft) {
    const you = /** @type {You} */ (f.you);
    const ok = one !== null && (you.knock_discards || []).includes(one);
    return [
      button(t("Knock, discarding selected"), () => act.knock(one), { key: "knock", disabled: !f.canAct || !ok }),
      button(you.deadwood === 0 ? t("Go gin") : t("Knock with %(n)s", { n: you.deadwood }), () => act.knock(null),
        { key: "knock-best", cls: "primary", disabled: !f.canAct || !(you.knock_discards || []).length || draft.melds.length > 0,
          title: t("The best discard and melds are chosen for you") }),
    ];
  },

  turnText(f, name) {
    const { view, moves } = f;
    const step = view.gin.step;
    if (f.myTurn) {
      if (step === "offer") return t("Your turn: take the up-card or pass");
      if (step === "reply") return t("Your turn: lay off, then done");
      if (view.phase === "draw") return t("Your turn: draw a card");
      return moves.includes("knock") ? t("Your turn: discard or knock") : t("Your turn: discard a card");
    }
    if (step === "offer") return t("%(name)s is offered the up-card", { name });
    if (step === "reply") return t("%(name)s is laying off", { name });
    return t("%(name)s’s turn", { name });
  },

  board(model, f) {
    const { view } = f;
    const g = view.gin;
    const dealer = (view.first + 1) % view.players; // `first` is the non-dealer (games/engine/gin/cycle.py)
    const limit = g.knock_limit === 0 ? t("gin only: no knocking this deal") : t("knock with up to %(n)s loose points", { n: g.knock_limit });
    const facts = [
      // The up-card while it is offered; once taken (or passed) it is a card like the others
      // (issue 33, item 9): the limit and the factor it set stay.
      g.step === "offer" ? h("span", { class: "fact" }, `${t("Up-card")} `, g.upcard ? cardEl(g.upcard, { classes: "mini" }) : "–") : null,
      h("span", { class: "fact", id: "knock-limit" }, limit),
      g.factor && g.factor !== 1 ? h("span", { class: "fact doubled", id: "deal-factor" }, t("scores ×%(n)s this deal", { n: g.factor })) : null,
      h("span", { class: "fact" }, t("%(name)s deals", { name: seatName(view, dealer) })),
    ];
    let offer = null;
    if (g.step === "offer") {
      const passed = (g.passed || []).map((s) => who(view, s));
      offer = h("p", { class: "offer", id: "offer" },
        view.seat !== null && g.offered_to === view.seat ? t("The up-card is offered to you") : t("The up-card is offered to %(who)s", { who: seatName(view, g.offered_to) }),
        passed.length ? ` (${t("%(names)s passed", { names: passed.join(` ${t("and")} `) })})` : "", ".");
    } else if (g.stock_only && view.phase === "draw" && g.step === "turn") {
      offer = h("p", { class: "offer", id: "offer" }, t("Both passed the up-card: the first draw is from the stock."));
    }
    return [h("p", { class: "deal-info", id: "deal-info" }, facts), offer, knockPanel(view)];
  },

  meldLabel(f, meld) {
    return placedLabel(f.view, meld);
  },

  badges(f, seat) {
    const { view } = f;
    const out = [];
    if (seat === (view.first + 1) % view.players) out.push(h("span", { class: "badge" }, t("dealer")));
    const won = view.gin.deals_won ? view.gin.deals_won[seat] : 0;
    out.push(h("span", { class: "player-extra" }, tn("won %(n)s deal", "won %(n)s deals", won)));
    return out;
  },

  mine(f) {
    // Asked only for a seat's own view, with its hand and its `you` hints (index.js, mineInfo).
    const { view } = f;
    const you = /** @type {You} */ (f.you);
    const hand = /** @type {string[]} */ (view.hand);
    const g = view.gin;
    if (g.step === "over" || !hand.length) return null;
    const eleven = you.discards && you.discards.length > 0;
    const parts = [
      h("p", {},
        h("strong", { id: "deadwood" }, t("Deadwood: %(n)s", { n: you.deadwood })),
        eleven ? ` ${t("after your best discard")}` : ""),
    ];
    if (you.best_melds && you.best_melds.length) {
      parts.push(h("p", { class: "suggested" }, `${t("Best melds:")} `,
        you.best_melds.map((meld) => h("span", { class: "suggested-meld" }, faces(meld)))));
    }
    if (f.myTurn && you.knock_discards && you.knock_discards.length) {
      parts.push(h("p", { class: "knock-ready", id: "knock-ready" },
        you.deadwood === 0 ? h("strong", {}, `${t("Gin is on!")} `) : h("strong", {}, `${t("You can knock.")} `),
        (you.deadwood === 0 ? t("Discard one of %(cards)s to go gin or knock.", { cards: faces(you.knock_discards) }) : t("Discard one of %(cards)s to knock.", { cards: faces(you.knock_discards) }))));
    }
    if (f.myTurn && g.step === "reply" && g.knock) {
      parts.push(h("p", {},
        `${cap(g.knock.gin ? t("%(who)s went gin", { who: seatName(view, g.knock.seat) }) : t("%(who)s knocked with %(n)s", { who: seatName(view, g.knock.seat), n: g.knock.points }))}. `,
        t("Lay your melds and add cards to the table melds, then press Done: it lays the rest as well as it can and counts your loose cards.")));
    }
    if (f.myTurn && g.taken && view.phase === "play") {
      parts.push(h("p", { class: "aside" }, t("You took %(card)s: it stays in your hand this turn.", { card: cardName(g.taken, "acc") })));
    }
    return h("div", { class: "family-info gin-info", id: "gin-info" }, parts);
  },

  taken: (f) => f.view.gin.taken || null,

  scoring(view) {
    if (view.gin.columns) {
      return t("Points, highest wins: three columns, each finished when a score in it reaches %(target)s; each is settled as a game of gin and the results are added.", { target: view.gin.target });
    }
    return t("Points, highest wins: the game ends when a total reaches %(target)s.", { target: view.gin.target });
  },

  lineParts(line) {
    const parts = [t("loose points: %(n)s", { n: line.hand })];
    if (line.bonus) parts.push(t("bonus: %(n)s", { n: line.bonus }));
    if (line.multiplier && line.multiplier !== 1) parts.push(`×${line.multiplier}`);
    return parts;
  },

  footRows(f) {
    const { view } = f;
    const rows = [footRow(t("Deals won"), view.gin.deals_won.map(String), "deals-row")];
    if (view.gin.settlement) rows.push(footRow(t("Settled"), view.gin.settlement.net.map(signed), "settled-row"));
    return rows;
  },

  extras(model, f) {
    const { view } = f;
    const g = view.gin;
    const out = [];
    if (g.columns) out.push(columnsTable(view, g.columns));
    if (g.settlement) {
      out.push(h("div", { class: "settlement", id: "settlement" }, h("h3", {}, t("Settlement")),
        h("ul", { class: "round-lines" }, g.settlement.notes.map((note) => h("li", {}, noteText(note), ruleTag(note))))));
    }
    return out;
  },

  lastDeal: () => null,

  overText(f) {
    const { view } = f;
    if (!view.gin.settlement) return "";
    const s = view.gin.settlement;
    return t("Settlement: %(list)s.", { list: view.names.map((n, seat) => `${n} ${signed(s.net[seat])}`).join(" · ") });
  },

  roundOver(view, e, round, winner) {
    return t("%(round)s is over: %(who)s scores", { round, who: winner });
  },
};

/** "Ala’s run · with Bartek’s lay-offs" (melds do not score apart in the gin family and Knock-108). */
export function placedLabel(view, meld) {
  const owner = seatName(view, meld.owner);
  const extra = meld.placed_by && meld.placed_by.some((s) => s !== meld.owner)
    ? ` · ${t("with %(names)s’s lay-offs", { names: [...new Set(meld.placed_by.filter((s) => s !== meld.owner))].map((s) => seatName(view, s)).join(", ") })}`
    : "";
  return `${t("%(owner)s’s %(kind)s", { owner, kind: meldKind(meld.kind) })}${extra}`;
}

function knockPanel(view) {
  const knock = view.gin.knock;
  if (!knock) return null;
  const name = who(view, knock.seat);
  const me = view.seat !== null && knock.seat === view.seat;
  const title = knock.gin
    ? (me ? upperFirst(t("you went gin")) : t("%(who)s went gin", { who: name }))
    : knockedTitle(view, knock.seat, knock.points);
  return h("div", { class: "knock-panel", id: "knock-panel" },
    h("p", {}, h("strong", {}, title), knock.discard ? [` · ${t("discarded")} `, cardEl(knock.discard, { classes: "mini" })] : null),
    knock.deadwood && knock.deadwood.length
      ? h("p", { class: "loose" }, h("span", { class: "label" }, t("Loose cards (face up)")), cardRow(knock.deadwood, { label: me ? t("your loose cards") : t("%(who)s: loose cards", { who: name }) }))
      : null);
}

function columnsTable(view, columns) {
  return h("div", { class: "columns", id: "columns" },
    h("h3", {}, t("Columns")),
    h("table", { class: "table columns-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Column")), view.names.map((n) => h("th", { scope: "col" }, n)), h("th", { scope: "col" }, t("Result")))),
      h("tbody", {}, columns.map((c, i) =>
        h("tr", { class: c.winner !== null && c.winner !== undefined ? "finished" : "" },
          h("th", { scope: "row" }, String(i + 1)),
          view.names.map((_, seat) => h("td", { title: tn("%(n)s deal won in this column", "%(n)s deals won in this column", c.deals[seat]) },
            `${c.scores[seat]} (${c.deals[seat]})`)),
          h("td", {}, c.result ? `${seatName(view, c.result.winner)} +${c.result.points}` : t("open")))))),
    h("p", { class: "aside" }, t("Each cell: points (deals won in the column).")));
}

/** A settlement note's rule ids as a small tag beside its sentence. */
function ruleTag(note) {
  const rules = noteRules(note);
  return rules.length ? [" ", h("small", { class: "rule-ref" }, rules.join(", "))] : null;
}
