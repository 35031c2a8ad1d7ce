// What differs between the rule families on the table, read only from the view's own blocks:
//
// * "gin"   (gin, oklahoma): the view has a `gin` block (the up-card offer, the knock limit, the
//           knock and its loose cards, deals won, Oklahoma's columns, the settlement) and `you`
//           carries `deadwood`, `best_melds`, `knock_discards`.
// * "knock" (knock108): the view has `stage` and `stakes` (the pool and the chip ledger), `knock`,
//           `buy_back`, `in_game`, `last_deal`; `you` carries `loose_points` and a `knock` hint.
// * "cycle" (remik51, remi, rummy500, remik40): the shared turn cycle (draw or take with a play,
//           lay down, discard); rummy500 adds `running_totals` and `target`, remik40 `prize_pool`.
//
// Nothing here decides a rule: the texts describe what the view says, the buttons send what the
// `you` hints list, and the server answers.

import { cardName, cardShort } from "./cards.js";
import { h } from "./dom.js";
import { meldKind, t, tn } from "./i18n.js";
import { cardEl, cardRow, seatName, signed } from "./widgets.js";

/** Variants whose discards form a row a player may reach into (the rest: only the top card). */
const ROW_VARIANTS = new Set(["remi", "rummy500"]);

export function familyOf(view) {
  if (view.gin) return "gin";
  if (view.stakes && view.stage) return "knock";
  return "cycle";
}

export function isRow(view) {
  return ROW_VARIANTS.has(view.variant);
}

/** In the gin family and Knock-108 a take is a move of its own (no play goes with it). */
export function takeAlone(family) {
  return family !== "cycle";
}

const DECLARED = { knock: t("a knock"), gin: t("gin"), flush: t("a flush"), figures: t("figures"), full_sequence: t("a full sequence") };

/** How a Knock-108 deal was ended ("a knock", "a flush"…), in the page's language. */
export function declaredName(result) {
  return DECLARED[result] || String(result).replace(/_/g, " ");
}

function who(view, seat) {
  return seat === view.seat && view.seat !== null ? t("you") : seatName(view, seat);
}

function faces(cards) {
  return cards.map(cardShort).join(" ");
}

// --- the status line --------------------------------------------------------------------------------

export function turnText(f) {
  const { view, family, moves } = f;
  const name = seatName(view, view.turn);
  if (family === "gin") {
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
  }
  if (family === "knock") {
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
  }
  if (f.myTurn) {
    if (view.phase === "draw") return t("Your turn: draw a card");
    if (!moves.includes("play")) return t("Your turn: discard a card");
    return t("Your turn: lay down, then discard");
  }
  return t("%(name)s’s turn", { name });
}

// --- the board: what this deal is played with ---------------------------------------------------

/** Lines above the melds: the up-card and knock limit, a knock and its loose cards, the pool… */
export function boardInfo(model, f) {
  const { view, family } = f;
  if (family === "gin") return ginBoard(model, f);
  if (family === "knock") return knockBoard(view);
  const pool = view.prize_pool;
  if (pool) {
    return h("p", { class: "deal-info", id: "deal-info" },
      t("Prize pool %(pool)s chips (%(stake)s each): the winner takes %(share)s, the rest goes to losers under %(threshold)s points.", { pool: pool.pool, stake: pool.stake, share: `${pool.winner_share}%`, threshold: pool.threshold }));
  }
  if (view.variant === "rummy500" && view.target) {
    return h("p", { class: "deal-info", id: "deal-info" }, t("Plus points for cards laid; first past %(target)s.", { target: view.target }));
  }
  return null;
}

function ginBoard(model, f) {
  const { view } = f;
  const g = view.gin;
  const dealer = (view.first + 1) % view.players; // `first` is the non-dealer (games/engine/families/gin.py)
  const limit = g.knock_limit === 0 ? t("gin only: no knocking this deal") : t("knock with up to %(n)s loose points", { n: g.knock_limit });
  const facts = [
    h("span", { class: "fact" }, `${t("Up-card")} `, g.upcard ? cardEl(g.upcard, { classes: "mini" }) : "–"),
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
  return [h("p", { class: "deal-info", id: "deal-info" }, facts), offer, ginKnockPanel(view)];
}

function ginKnockPanel(view) {
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

function knockBoard(view) {
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
}

/** The label of a table meld. Points only where melds score (the shared cycle). */
export function meldLabel(f, meld) {
  const { view, family } = f;
  const owner = seatName(view, meld.owner);
  if (family === "cycle") return `${owner} · ${meldKind(meld.kind)} · ${t("%(n)s pts", { n: meld.points })}`;
  const extra = meld.placed_by && meld.placed_by.some((s) => s !== meld.owner)
    ? ` · ${t("with %(names)s’s lay-offs", { names: [...new Set(meld.placed_by.filter((s) => s !== meld.owner))].map((s) => seatName(view, s)).join(", ") })}`
    : "";
  return `${t("%(owner)s’s %(kind)s", { owner, kind: meldKind(meld.kind) })}${extra}`;
}

// --- players ----------------------------------------------------------------------------------------

/** Badges beside a seat's name in the players list. */
export function playerBadges(f, seat) {
  const { view, family } = f;
  const out = [];
  if (family === "gin") {
    if (seat === (view.first + 1) % view.players) out.push(h("span", { class: "badge" }, t("dealer")));
    const won = view.gin.deals_won ? view.gin.deals_won[seat] : 0;
    out.push(h("span", { class: "player-extra" }, tn("won %(n)s deal", "won %(n)s deals", won)));
  } else if (family === "knock") {
    if (!view.in_game[seat]) out.push(h("span", { class: "badge out" }, t("out")));
    const chips = view.stakes.chips[seat];
    out.push(h("span", { class: `player-extra chips ${chips < 0 ? "minus" : ""}`, title: t("chips won or paid") }, t("chips %(n)s", { n: signed(chips) })));
    const bought = view.stakes.buy_backs[seat];
    if (bought) out.push(h("span", { class: "player-extra" }, tn("bought back %(n)s×", "bought back %(n)s×", bought)));
  } else {
    if (view.opened[seat]) out.push(h("span", { class: "badge" }, t("opened")));
    if (view.running_totals && view.running_totals[seat] !== view.scores.totals[seat]) {
      out.push(h("span", { class: "player-extra", title: t("the total with this deal's cards on the table") },
        t("%(n)s with this deal", { n: view.running_totals[seat] })));
    }
  }
  return out;
}

export function totalTitle(family) {
  return family === "knock" ? t("record (minus points)") : t("total");
}

// --- the seat's own panel: deadwood, knock options, buy-back ---------------------------------------

export function mineInfo(model, f) {
  const { view, you, family } = f;
  if (!you) return null;
  if (family === "gin") return ginMine(f);
  if (family === "knock") return knockMine(f);
  return null;
}

function ginMine(f) {
  const { view, you } = f;
  const g = view.gin;
  if (g.step === "over" || !view.hand.length) return null;
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
    parts.push(h("p", { class: "aside" }, t("You took %(card)s: it stays in your hand this turn.", { card: cardName(g.taken) })));
  }
  return h("div", { class: "family-info gin-info", id: "gin-info" }, parts);
}

function knockMine(f) {
  const { view, you } = f;
  const parts = [];
  if (you.stage === "buy_back" && f.myTurn && you.buy_back) {
    const b = you.buy_back;
    parts.push(h("p", {}, h("strong", {}, `${t("You are out with a record of %(n)s.", { n: view.scores.totals[view.seat] })} `),
      t("Buy back in for %(cost)s chips: your record becomes %(record)s and you are dealt ten cards. Or stay out.", { cost: b.cost, record: b.record })));
  } else if (!you.in_game) {
    parts.push(h("p", {}, h("strong", {}, t("You are out of the game")), ` ${t("with a record of %(n)s.", { n: view.scores.totals[view.seat] })}`));
  } else if (view.hand.length) {
    parts.push(h("p", {}, h("strong", { id: "loose-points" }, t("Loose points: %(n)s", { n: you.loose_points })), ` ${t("in your hand as it is")}`));
    if (you.knock) {
      const k = you.knock;
      const what = k.kind === "knock" ? t("a knock with %(n)s", { n: k.points }) : DECLARED[k.kind] || k.kind;
      parts.push(h("p", { class: "knock-ready", id: "knock-ready" }, h("strong", {}, `${t("You can end the deal:")} `),
        t("discard %(card)s for %(what)s.", { card: cardShort(k.card), what })));
    }
    if (f.myTurn && you.stage === "exchange" && view.knock) {
      parts.push(h("p", {}, cap(t("%(who)s knocked: one extra exchange (draw or take, then discard), or pass.", { who: seatName(view, view.knock.seat) }))));
    }
    if (f.myTurn && you.taken && view.phase === "play") {
      parts.push(h("p", { class: "aside" }, t("You took %(card)s: it stays in your hand this turn.", { card: cardName(you.taken) })));
    }
  }
  return parts.length ? h("div", { class: "family-info knock-info", id: "knock-info" }, parts) : null;
}

/** The card just taken from the face-up pile (it may not be discarded this turn), if the view says. */
export function takenCard(f) {
  if (f.family === "gin") return f.view.gin.taken || null;
  if (f.family === "knock") return (f.you && f.you.taken) || null;
  return null;
}

// --- scores -----------------------------------------------------------------------------------------

export function roundWord(family) {
  return family === "cycle" ? t("Round") : t("Deal");
}

export function scoringText(view, family) {
  if (family === "gin") {
    if (view.gin.columns) {
      return t("Points, highest wins: three columns, each finished when a score in it reaches %(target)s; each is settled as a game of gin and the results are added.", { target: view.gin.target });
    }
    return t("Points, highest wins: the game ends when a total reaches %(target)s.", { target: view.gin.target });
  }
  if (family === "knock") {
    return t("Minus points on each record, lowest is best: over %(limit)s a player is out; the last one in takes the pool.", { limit: view.limit });
  }
  if (view.prize_pool) return t("Penalty points for the cards left in hand: one game, won by the player who goes out.");
  if (view.variant === "rummy500") {
    return t("Points for the cards laid, minus the cards left in hand: the highest total past %(target)s wins.", { target: view.target });
  }
  const limit = view.options && view.options.penalty_limit;
  if (view.lower_wins) return limit ? t("Penalty points: the lowest total wins; over %(limit)s ends the match.", { limit }) : t("Penalty points: the lowest total wins.");
  return t("Points: the highest total wins.");
}

/** One score line in words: what it is made of, then its notes. */
export function lineDetail(view, line) {
  const family = familyOf(view);
  const parts = [];
  if (family === "gin") {
    parts.push(`loose ${line.hand}`);
    if (line.bonus) parts.push(`bonus ${line.bonus}`);
    if (line.multiplier && line.multiplier !== 1) parts.push(`×${line.multiplier}`);
  } else if (family === "knock") {
    parts.push(`loose ${line.hand}`);
    if (line.bonus) parts.push(`credit ${line.bonus}`);
    if (line.chips !== undefined && line.chips !== null) parts.push(`chips ${signed(line.chips)}`);
  } else {
    parts.push(`hand ${line.hand}`, `table ${line.table}`);
    if (line.bonus) parts.push(`bonus ${line.bonus}`);
    if (line.atu_bonus) parts.push(`atu ${line.atu_bonus}`);
    if (line.multiplier && line.multiplier !== 1) parts.push(`×${line.multiplier}`);
    if (line.chips !== undefined && line.chips !== null) parts.push(`chips ${line.chips}`);
  }
  return parts.join(", ") + (line.notes && line.notes.length ? `; ${line.notes.join("; ")}` : "");
}

/** A line's points as shown: plus-scoring variants show the sign. */
export function pointsText(view, points) {
  return view.lower_wins ? String(points) : signed(points);
}

/** Extra rows under the scores table (its tfoot). */
export function scoreFootRows(f) {
  const { view, family } = f;
  const row = (label, cells, cls = "") =>
    h("tr", { class: cls }, h("th", { scope: "row" }, label), cells.map((c) => h("td", {}, c)));
  const rows = [];
  if (family === "gin") {
    rows.push(row(t("Deals won"), view.gin.deals_won.map(String), "deals-row"));
    if (view.gin.settlement) rows.push(row(t("Settled"), view.gin.settlement.net.map(signed), "settled-row"));
  } else if (family === "knock") {
    rows.push(row(t("Chips"), view.stakes.chips.map(signed), "chips-row"));
    rows.push(row(t("In game"), view.in_game.map((x) => (x ? "in" : "out")), "status-row"));
  } else {
    if (view.running_totals && view.phase !== "over") rows.push(row(t("With this deal"), view.running_totals.map(String), "running-row"));
    if (view.prize_pool && view.prize_pool.payouts) {
      rows.push(row(t("Chips won"), view.prize_pool.payouts.map(String), "chips-row"));
      rows.push(row(t("Net chips"), view.prize_pool.net.map(signed), "net-row"));
    }
  }
  return rows;
}

/** Sections after the scores table: Oklahoma's columns, the settlement, the chip ledger. */
export function scoreExtras(model, f) {
  const { view, family } = f;
  const out = [];
  if (family === "gin") {
    const g = view.gin;
    if (g.columns) out.push(columnsTable(view, g.columns));
    if (g.settlement) {
      out.push(h("div", { class: "settlement", id: "settlement" }, h("h3", {}, t("Settlement")),
        h("ul", { class: "round-lines" }, g.settlement.notes.map((note) => h("li", {}, note)))));
    }
  } else if (family === "knock") {
    const ledger = view.stakes.ledger || [];
    out.push(h("p", { class: "aside" }, t("Pool: %(pool)s chips · stake %(stake)s.", { pool: view.stakes.pool, stake: view.stakes.stake })));
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
  } else if (view.prize_pool) {
    const p = view.prize_pool;
    out.push(h("p", { class: "aside" }, t("Prize pool: %(pool)s chips (%(stake)s from each player); the winner takes %(share)s.", { pool: p.pool, stake: p.stake, share: `${p.winner_share}%` })));
  }
  const rounds = view.scores.rounds;
  if (rounds.length) {
    const word = roundWord(family).toLowerCase();
    out.push(h("details", { class: "last-deal", id: "last-deal", dataset: { keep: "last-deal" } },
      h("summary", {}, t("How %(round)s ended", { round: `${word} ${rounds[rounds.length - 1].round}` })), lastDealSummary(model, f)));
  }
  return out;
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

// --- the end of a deal --------------------------------------------------------------------------------

/**
 * What the last deal ended with: from its round_over event when this page saw it (melds, hands,
 * the knock), else Knock-108's `last_deal`, else the hands kept in the score record.
 */
export function lastDealSummary(model, f) {
  const { view, family } = f;
  const rounds = view.scores.rounds;
  const last = rounds[rounds.length - 1];
  if (!last) return null;
  if (family === "knock" && view.last_deal && view.last_deal.round === last.round) {
    const d = view.last_deal;
    return h("ul", { class: "deal-summary" }, d.seats.map((item) =>
      h("li", {}, h("strong", {}, `${seatName(view, item.seat)}: `),
        item.special ? `${DECLARED[item.special] || item.special} ` : null,
        item.melds.length ? item.melds.map((m) => h("span", { class: "suggested-meld" }, `[${faces(m)}]`)) : null,
        item.loose.length ? ` ${t("loose %(cards)s", { cards: faces(item.loose) })}` : "",
        ` (${item.points})`)));
  }
  const event = model.lastDeal && model.lastDeal.round === last.round ? model.lastDeal : null;
  const hands = (event && event.hands) || last.hands || [];
  const melds = (event && event.melds) || [];
  return h("ul", { class: "deal-summary" }, view.names.map((_, seat) => {
    const own = melds.filter((m) => m.owner === seat);
    return h("li", {}, h("strong", {}, `${seatName(view, seat)}: `),
      own.length ? own.map((m) => h("span", { class: "suggested-meld" }, `[${faces(m.cards)}]`)) : null,
      hands[seat] && hands[seat].length ? ` ${t("left %(cards)s", { cards: faces(hands[seat]) })}` : ` ${t("nothing left")}`);
  }));
}

/** A sentence for the banner when the match is over (the settlement, the chips). */
export function overText(f) {
  const { view, family } = f;
  if (family === "gin" && view.gin.settlement) {
    const s = view.gin.settlement;
    return t("Settlement: %(list)s.", { list: view.names.map((n, seat) => `${n} ${signed(s.net[seat])}`).join(" · ") });
  }
  if (family === "knock") return t("Chips: %(list)s.", { list: view.names.map((n, seat) => `${n} ${signed(view.stakes.chips[seat])}`).join(" · ") });
  if (view.prize_pool && view.prize_pool.payouts) {
    return t("Chips from the pool: %(list)s.", { list: view.names.map((n, seat) => `${n} ${view.prize_pool.payouts[seat]}`).join(" · ") });
  }
  return "";
}

// --- events -------------------------------------------------------------------------------------------

/** Words for the events of the gin family and Knock-108 (undefined: not one of theirs). */
export function describeFamilyEvent(view, e) {
  // The player's own events have their own whole sentences ("you passed…"), so that Polish and
  // Romanian can conjugate the verb; the others name the player.
  const me = view.seat !== null && e.seat === view.seat;
  const actor = seatName(view, e.seat);
  switch (e.kind) {
    case "passed":
      if (e.card) return me ? t("you passed on the up-card") : t("%(who)s passed on the up-card", { who: actor });
      return me ? t("you passed the extra exchange") : t("%(who)s passed the extra exchange", { who: actor });
    case "knocked":
      if (e.gin) return me ? t("you went gin") : t("%(who)s went gin", { who: actor });
      return me ? t("you knocked with %(n)s", { n: e.points }) : t("%(who)s knocked with %(n)s", { who: actor, n: e.points });
    case "declared": {
      const what = DECLARED[e.result] || e.result;
      return me ? t("you ended the deal with %(what)s", { what }) : t("%(who)s ended the deal with %(what)s", { who: actor, what });
    }
    case "extra_exchange":
      return me ? t("you may make an extra exchange") : t("%(who)s may make an extra exchange", { who: actor });
    case "bought_back":
      return me
        ? tn("you bought back in for %(n)s chip", "you bought back in for %(n)s chips", e.cost)
        : tn("%(who)s bought back in for %(n)s chip", "%(who)s bought back in for %(n)s chips", e.cost, { who: actor });
    case "stayed_out":
      return me ? t("you stayed out") : t("%(who)s stayed out", { who: actor });
    case "eliminated":
      return me ? t("you are out with a record of %(n)s", { n: e.record }) : t("%(who)s is out with a record of %(n)s", { who: actor, n: e.record });
    case "opened":
      return me ? t("you opened") : t("%(who)s opened", { who: actor });
    case "stuck":
      return t("nobody can go out any more: the game is void");
    default:
      return undefined;
  }
}

/** "… knocked with N loose points", with its own sentence for the player's own knock. */
function knockedTitle(view, seat, points) {
  if (view.seat !== null && seat === view.seat) {
    return upperFirst(tn("you knocked with %(n)s loose point", "you knocked with %(n)s loose points", points));
  }
  return tn("%(who)s knocked with %(n)s loose point", "%(who)s knocked with %(n)s loose points", points, { who: seatName(view, seat) });
}

function upperFirst(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "you" starts a sentence as "You"; a player's name is left as it is written. */
function cap(text) {
  return /^you\b/.test(text) ? `Y${text.slice(1)}` : text;
}
