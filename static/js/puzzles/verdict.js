// The words of a puzzle's verdict (docs/learn.md, "Puzzles"): pure functions of the endpoint's
// answer, in the page's language, that static/js/puzzles/puzzle.js lays out and
// tests/js/render_puzzle_texts.mjs renders for the approved Polish and Romanian texts
// (tests/approved/puzzles_texts.txt). Cards as the table writes them (cardShort: "Q♥", "10♦",
// "★(Q♦)"), numbers in the page's language ("2,5" in Polish and Romanian). No rule is decided here.

import { cardShort } from "../table/cards.js";
import { language, t } from "../i18n.js";

/** A number with `digits` decimals, as the page's language writes it (Intl.NumberFormat). */
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    Number(value) || 0,
  );
}

/** "Q♥ K♥ A♥": cards in notation ("QH#2 KH#1 AH#1") as the table writes them. */
export function cardsText(cards) {
  return cards.map((card) => cardShort(String(card))).join(" ");
}

/** The verdict's first line: "Solved!" alone, or "Not this time." and why. */
export function headline(answer) {
  if (answer.correct) return { strong: t("Solved!"), rest: "" };
  return { strong: t("Not this time."), rest: answer.message || "" };
}

/** The opening kinds: each meld ("Q♥ K♥ A♥", "31 points"), and the count towards the opening. */
export function meldLines(explanation) {
  if (!explanation || !explanation.melds) return [];
  return explanation.melds.map((meld) => ({ cards: cardsText(meld.cards), points: t("%(n)s points", { n: meld.points }) }));
}

export function pointsLine(explanation) {
  if (!explanation || explanation.alternatives) return "";
  const base = t("Counted towards the opening: %(points)s of the %(need)s needed.", { points: explanation.points, need: explanation.required_points });
  const jokers = explanation.exchanges && explanation.exchanges.length ? ` ${t("Jokers bought back: %(n)s.", { n: explanation.exchanges.length })}` : "";
  return base + jokers;
}

/** The knock and discard kinds: each alternative with its expected points, the played one marked,
 * and the margin. */
export function figureLines(explanation, played) {
  if (!explanation || !explanation.alternatives) return null;
  const said = { knock: t("Knock now"), draw_on: t("Draw on") };
  const face = (card) => cardShort(String(card));
  const label = (a) => (a.card ? t("Discard %(card)s", { card: face(a.card) }) : said[a.choice] || a.choice);
  const mine = played && played.card ? face(played.card) : null;
  const values = {
    margin: decimal(explanation.margin),
    error: decimal(explanation.error || 0),
    n: explanation.samples,
    top: explanation.top,
  };
  return {
    rows: explanation.alternatives.map((a) => ({
      text: `${label(a)} — ${t("%(points)s points expected", { points: decimal(a.points) })}`,
      played: Boolean(mine && a.card && face(a.card) === mine),
    })),
    yours: t("(your discard)"),
    margin: explanation.top
      ? t("The best discard is ahead of the second best of the hard bot's %(top)s best discards by %(margin)s ± %(error)s points, over %(n)s deals of the unseen cards.", values)
      : t("Margin %(margin)s ± %(error)s points over %(n)s deals of the unseen cards.", values),
    notConsidered:
      mine && explanation.top && !explanation.alternatives.some((a) => a.card && face(a.card) === mine)
        ? t("Your discard is not among the hard bot's best discards: the engine did not play it out.")
        : "",
  };
}

/** What introduces the explanation: the player's own right answer, or the engine's. */
export function introLine(kind, correct) {
  const evaluated = kind === "knock" || kind === "discard";
  if (correct) return evaluated ? t("The engine agrees:") : t("The engine accepts your opening:");
  return evaluated ? t("The engine's choice:") : t("One answer the engine accepts:");
}

export function noSolutionLine() {
  return t("The engine's answer is shown only after a rated try: log in, and it comes with your first answer.");
}

export function ratingLine(answer) {
  if (answer.rated) {
    return t("Your puzzle rating: %(rating)s (%(change)s).", {
      rating: answer.rating,
      change: `${answer.rating_change >= 0 ? "+" : ""}${answer.rating_change}`,
    });
  }
  return answer.rating !== null && answer.rating !== undefined ? t("Only your first answer to a puzzle is rated.") : "";
}
