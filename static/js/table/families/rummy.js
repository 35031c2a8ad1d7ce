// The rummy cycle on the table (games/engine/rummy/cycle.py: remik51, remik40, remi, rummy500):
// the shared turn (draw or take with a play, lay down, discard); rummy500 adds `running_totals`
// and `target`, remik40 `prize_pool`. Texts only: the view says what is so, the server decides.

import { h } from "../../dom.js";
import { meldKind, t } from "../../i18n.js";
import { seatName } from "../widgets.js";
import { footRow } from "./common.js";

/** Variants whose discards form a row a player may reach into (the rest: only the top card). */
export const ROW_VARIANTS = new Set(["remi", "rummy500"]);

/** @type {Family} */
export const rummy = {
  name: "rummy",
  // A take comes with the play that uses the taken card; the rack's "Lay down all" lays melds
  // during the turn.
  takeAlone: false,
  knockMelds: false,
  laysAll: true,
  roundWord: () => t("Round"),
  step: () => null,
  isOut: () => false,
  pileLabel: () => t("Discard pile"),
  totalTitle: () => t("total"),
  totalLabel: () => t("Total"),
  bestMelds: () => false,
  knockControls: () => [],

  hint(f) {
    const { view, moves } = f;
    if (f.taking) return t("Select cards (the taken one included) and make a new meld, then take and lay down.");
    if (view.phase === "draw") return moves.includes("take") ? t("Draw from the stock, or pick a discard to take.") : t("Draw from the stock.");
    if (moves.includes("play")) return t("Select cards to make melds, add to table melds or swap a joker; select one card to discard.");
    return t("Select one card to discard.");
  },

  turnText(f, name) {
    const { view, moves } = f;
    if (f.myTurn) {
      if (view.phase === "draw") return t("Your turn: draw a card");
      if (!moves.includes("play")) return t("Your turn: discard a card");
      return t("Your turn: lay down, then discard");
    }
    return t("%(name)s’s turn", { name });
  },

  board(model, f) {
    const { view } = f;
    const pool = view.prize_pool;
    if (pool) {
      return h("p", { class: "deal-info", id: "deal-info" },
        t("Prize pool %(pool)s chips (%(stake)s each): the winner takes %(share)s, the rest goes to losers under %(threshold)s points.", { pool: pool.pool, stake: pool.stake, share: `${pool.winner_share}%`, threshold: pool.threshold }));
    }
    if (view.variant === "rummy500" && view.target) {
      return h("p", { class: "deal-info", id: "deal-info" }, t("Plus points for cards laid; first past %(target)s.", { target: view.target }));
    }
    return null;
  },

  meldLabel(f, meld) {
    return `${seatName(f.view, meld.owner)} · ${meldKind(meld.kind)} · ${t("%(n)s pts", { n: meld.points })}`;
  },

  badges(f, seat) {
    const { view } = f;
    const out = [];
    if (view.opened[seat]) out.push(h("span", { class: "badge" }, t("opened")));
    if (view.running_totals && view.running_totals[seat] !== view.scores.totals[seat]) {
      out.push(h("span", { class: "player-extra", title: t("the total with this deal's cards on the table") },
        t("%(n)s with this deal", { n: view.running_totals[seat] })));
    }
    return out;
  },

  mine: () => null,
  taken: () => null,

  scoring(view) {
    if (view.prize_pool) return t("Penalty points for the cards left in hand: one game, won by the player who goes out.");
    if (view.variant === "rummy500") {
      return t("Points for the cards laid, minus the cards left in hand: the highest total past %(target)s wins.", { target: view.target });
    }
    const limit = view.options && view.options.penalty_limit;
    if (view.lower_wins) return limit ? t("Penalty points: the lowest total wins; over %(limit)s ends the match.", { limit }) : t("Penalty points: the lowest total wins.");
    return t("Points: the highest total wins.");
  },

  lineParts(line) {
    const parts = [t("in hand: %(n)s", { n: line.hand }), t("on the table: %(n)s", { n: line.table })];
    if (line.bonus) parts.push(t("bonus: %(n)s", { n: line.bonus }));
    if (line.atu_bonus) parts.push(t("atu bonus: %(n)s", { n: line.atu_bonus }));
    if (line.multiplier && line.multiplier !== 1) parts.push(`×${line.multiplier}`);
    if (line.chips !== undefined && line.chips !== null) parts.push(t("chips: %(n)s", { n: line.chips }));
    return parts;
  },

  footRows(f, signed) {
    const { view } = f;
    const rows = [];
    if (view.running_totals && view.phase !== "over") rows.push(footRow(t("With this deal"), view.running_totals.map(String), "running-row"));
    if (view.prize_pool && view.prize_pool.payouts) {
      rows.push(footRow(t("Chips won"), view.prize_pool.payouts.map(String), "chips-row"));
      rows.push(footRow(t("Net chips"), view.prize_pool.net.map(signed), "net-row"));
    }
    return rows;
  },

  extras(model, f) {
    const { view } = f;
    if (!view.prize_pool) return [];
    const p = view.prize_pool;
    return [h("p", { class: "aside" }, t("Prize pool: %(pool)s chips (%(stake)s from each player); the winner takes %(share)s.", { pool: p.pool, stake: p.stake, share: `${p.winner_share}%` }))];
  },

  lastDeal: () => null,

  overText(f) {
    const { view } = f;
    if (view.prize_pool && view.prize_pool.payouts) {
      return t("Chips from the pool: %(list)s.", { list: view.names.map((n, seat) => `${n} ${view.prize_pool.payouts[seat]}`).join(" · ") });
    }
    return "";
  },

  roundOver(view, e, round, winner) {
    if (e.one_go) return `${t("%(round)s is over: %(who)s went out in one go", { round, who: winner })}${view.variant === "remik40" ? " — Remik!" : ""}`;
    return t("%(round)s is over: %(who)s went out", { round, who: winner });
  },
};
