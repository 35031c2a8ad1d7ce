// What differs between the rule families on the table, one module per family as in the engine
// (the packages games/engine/rummy/, gin/, knock108/, named as there): rummy.js (the rummy
// cycle: remik51, remik40, remi, rummy500), gin.js (gin, oklahoma), knock108.js. The family is
// read only from the view's own blocks; this module picks the family's module and keeps the words
// every family shares. Every difference between the families lives in these modules: the rest of
// the table asks them (never `family === …`).
//
// Nothing here decides a rule: the texts describe what the view says, the buttons send what the
// `you` hints list, and the server answers.

import { h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { noteRules, noteText } from "../notes.js";
import { seatName, signed } from "../widgets.js";
import { declaredName, faces } from "./common.js";
import { gin } from "./gin.js";
import { knock108 } from "./knock108.js";
import { ROW_VARIANTS, rummy } from "./rummy.js";

export { declaredName };

/**
 * The family's name, the engine's (`Rules.family`, one package each: games/engine/rummy/, gin/,
 * knock108/): "rummy", "gin" or "knock108".
 * @param {View} view
 * @returns {FamilyName}
 */
export function familyOf(view) {
  if (view.gin) return "gin";
  if (view.stakes && view.stage) return "knock108";
  return "rummy";
}

/** @type {Record<FamilyName, Family>} */
const FAMILIES = { rummy, gin, knock108 };

/**
 * @param {FamilyName} family
 * @returns {Family}
 */
function of(family) {
  return FAMILIES[family] || rummy;
}

export function isRow(view) {
  return ROW_VARIANTS.has(view.variant);
}

/**
 * In the gin family and Knock-108 a take is a move of its own (no play goes with it).
 * @param {FamilyName} family
 */
export function takeAlone(family) {
  return of(family).takeAlone;
}

/**
 * Melds may be arranged by hand for a knock (the gin family: the engine lays the best ones when
 * none are given).
 * @param {FamilyName} family
 * @param {string[]} moves
 */
export function arrangesKnock(family, moves) {
  return of(family).knockMelds && moves.includes("knock");
}

/**
 * Whether the rack's "Lay down all" button is there (the rummy cycle, whose melds are laid
 * during the turn).
 * @param {FamilyName} family
 */
export function laysAll(family) {
  return of(family).laysAll;
}

/**
 * The step of the deal the family's view names (the gin family's `gin.step`, Knock-108's
 * `stage`), or null.
 * @param {Facts} f
 * @returns {string | null}
 */
export function turnStep(f) {
  return of(f.family).step(f.view);
}

/**
 * Whether `seat` is out of the game (Knock-108).
 * @param {Facts} f
 * @param {number} seat
 */
export function seatOut(f, seat) {
  return of(f.family).isOut(f.view, seat);
}

/**
 * The face-up pile's label (the discard row's is the table's).
 * @param {FamilyName} family
 */
export function pileLabel(family) {
  return of(family).pileLabel();
}

/**
 * The seat's hint line on its own turn, where the family has its own (undefined: the shared one).
 * @param {Facts} f
 * @param {string | null} step
 * @returns {string | undefined}
 */
export function familyHint(f, step) {
  return of(f.family).hint(f, step);
}

/**
 * The family's knock buttons (the gin family's knock and gin, Knock-108's knock), beside the
 * discard button.
 * @param {Facts} f
 * @param {Actions} act
 * @param {string | null} one the one selected card in hand
 * @param {Set<string>} discardable the faces the seat may discard
 * @param {Draft} draft the move being built
 * @returns {HTMLElement[]}
 */
export function knockControls(f, act, one, discardable, draft) {
  return of(f.family).knockControls(f, act, one, discardable, draft);
}

/**
 * Whether the "Use best melds" button is offered (the gin family: the view's `best_melds`).
 * @param {Facts} f
 */
export function offersBestMelds(f) {
  return of(f.family).bestMelds(f);
}

export function turnText(f) {
  return of(f.family).turnText(f, seatName(f.view, f.view.turn));
}

/** Lines above the melds: the up-card and knock limit, a knock and its loose cards, the pool… */
export function boardInfo(model, f) {
  return of(f.family).board(model, f);
}

/** The label of a table meld. Points only where melds score (the rummy cycle). */
export function meldLabel(f, meld) {
  return of(f.family).meldLabel(f, meld);
}

/** Badges beside a seat's name in the players list. */
export function playerBadges(f, seat) {
  return of(f.family).badges(f, seat);
}

/**
 * The title of a seat's total in the players list.
 * @param {FamilyName} family
 */
export function totalTitle(family) {
  return of(family).totalTitle();
}

/**
 * The scores table's row of totals: "Total", or Knock-108's "Record".
 * @param {FamilyName} family
 */
export function totalLabel(family) {
  return of(family).totalLabel();
}

/** The seat's own facts: deadwood and knock options (gin), loose points and buy-back (Knock-108). */
export function mineInfo(model, f) {
  if (!f.you) return null;
  return of(f.family).mine(f);
}

/** The card just taken from the face-up pile (it may not be discarded this turn), if the view says. */
export function takenCard(f) {
  return of(f.family).taken(f);
}

export function roundWord(family) {
  return of(family).roundWord();
}

export function scoringText(view, family) {
  return of(family).scoring(view);
}

/** One score line in words: what it is made of, then its notes (sentences without rule ids). */
export function lineDetail(view, line) {
  const parts = of(familyOf(view)).lineParts(line);
  return parts.join(", ") + (line.notes && line.notes.length ? `; ${line.notes.map(noteText).join("; ")}` : "");
}

/** The rule ids a score line's notes cite, as a small tag beside the sentence (null: none). */
export function lineRules(line) {
  const rules = [...new Set((line.notes || []).flatMap(noteRules))];
  return rules.length ? h("small", { class: "rule-ref" }, rules.join(", ")) : null;
}

/** A line's points as shown: plus-scoring variants show the sign. */
export function pointsText(view, points) {
  return view.lower_wins ? String(points) : signed(points);
}

/** Extra rows under the scores table (its tfoot). */
export function scoreFootRows(f) {
  return of(f.family).footRows(f, signed);
}

/** Sections after the scores table: Oklahoma's columns, the settlement, the chip ledger, the last deal. */
export function scoreExtras(model, f) {
  const { view, family } = f;
  const out = [...of(family).extras(model, f)];
  const rounds = view.scores.rounds;
  if (rounds.length) {
    const word = roundWord(family).toLowerCase();
    out.push(h("details", { class: "last-deal", id: "last-deal", dataset: { keep: "last-deal" } },
      h("summary", {}, t("How %(round)s ended", { round: `${word} ${rounds[rounds.length - 1].round}` })), lastDealSummary(model, f)));
  }
  return out;
}

/**
 * What the last deal ended with: from its round_over event when this page saw it (melds, hands,
 * the knock), else Knock-108's `last_deal`, else the hands kept in the score record.
 */
export function lastDealSummary(model, f) {
  const { view, family } = f;
  const rounds = view.scores.rounds;
  const last = rounds[rounds.length - 1];
  if (!last) return null;
  const own = of(family).lastDeal(view, last);
  if (own) return own;
  const event = model.lastDeal && model.lastDeal.round === last.round ? model.lastDeal : null;
  const hands = (event && event.hands) || last.hands || [];
  const melds = (event && event.melds) || [];
  return h("ul", { class: "deal-summary" }, view.names.map((_, seat) => {
    const mine = melds.filter((m) => m.owner === seat);
    return h("li", {}, h("strong", {}, `${seatName(view, seat)}: `),
      mine.length ? mine.map((m) => h("span", { class: "suggested-meld" }, `[${faces(m.cards)}]`)) : null,
      hands[seat] && hands[seat].length ? ` ${t("left %(cards)s", { cards: faces(hands[seat]) })}` : ` ${t("nothing left")}`);
  }));
}

/** A sentence for the banner when the match is over (the settlement, the chips). */
export function overText(f) {
  return of(f.family).overText(f);
}

/** "round 3 is over: Ala went out" and the family's own endings. */
export function roundOverLine(view, e) {
  const family = familyOf(view);
  const round = `${roundWord(family).toLowerCase()} ${e.round}`;
  const winner = e.winner !== null && e.winner !== undefined ? seatName(view, e.winner) : null;
  if (e.ended === "void") return t("%(round)s is void", { round });
  if (!winner) return t("%(round)s is over", { round });
  return of(family).roundOver(view, e, round, winner, declaredName);
}

// --- events of the gin family and Knock-108 (and the cycle's opening) --------------------------

/** Words for the events beyond the shared draw / take / meld / discard (undefined: not one of them). */
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
      const what = declaredName(e.result);
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
      return me ? t("you opened with %(n)s points", { n: e.points }) : t("%(who)s opened with %(n)s points", { who: actor, n: e.points });
    case "stuck":
      return t("nobody can go out any more: the game is void");
    default:
      return undefined;
  }
}

