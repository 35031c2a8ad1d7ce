// The scores drawer: the table of every round's points, the family's extra rows and sections,
// the fair-deal line, every round's lines and the winners.

import { h } from "../dom.js";
import { lineDetail, pointsText, roundWord, scoreExtras, scoreFootRows, scoringText, totalLabel } from "./families/index.js";
import { t } from "../i18n.js";
import { roundLines } from "./render.js";
import { seatName } from "./widgets.js";

export function renderScores(model, f) {
  const { view, family } = f;
  const rounds = view.scores.rounds;
  const word = roundWord(family);
  const head = h("tr", {}, h("th", { scope: "col" }, word), view.names.map((n) => h("th", { scope: "col" }, n)));
  const rows = rounds.map((r) =>
    h("tr", { class: r.ended === "void" ? "void" : "" }, h("th", { scope: "row" }, r.ended === "void" ? t("%(n)s (void)", { n: r.round }) : String(r.round)),
      view.names.map((_, seat) => {
        const line = r.lines.find((l) => l.seat === seat);
        return h("td", { title: line ? lineDetail(view, line) : "" }, line ? pointsText(view, line.points) : "–");
      })));
  const totals = h("tr", { class: "totals-row" }, h("th", { scope: "row" }, totalLabel(family)),
    view.names.map((_, seat) => h("td", {}, String(view.scores.totals[seat]))));
  const foot = scoreFootRows(f);
  return [
    h("h2", {}, t("Scores")),
    h("p", { class: "aside", id: "scoring" }, scoringText(view, family)),
    h("table", { class: "table scores-table" }, h("thead", {}, head), h("tbody", {}, rows, totals),
      foot.length ? h("tfoot", {}, foot) : null),
    scoreExtras(model, f),
    fairDeal(view, family),
    rounds.length
      ? h("details", { class: "round-details", dataset: { keep: "round-details" } }, h("summary", {}, t("Every %(round)s’s lines", { round: word.toLowerCase() })),
          rounds.slice().reverse().map((r) => h("div", {}, h("h3", {}, `${word} ${r.round}`), roundLines(view, r))))
      : h("p", { class: "aside" }, t("No %(round)s finished yet.", { round: word.toLowerCase() })),
    f.over
      ? h("p", { class: "winners" }, (view.winners || []).length
        ? [h("strong", {}, `${t("Winners:")} `), view.winners.map((s) => seatName(view, s)).join(", ")]
        : h("strong", {}, t("No winner.")))
      : null,
  ];
}

/** The fair-deal line: the commitment (SHA-256 of the seed) of the deal being played, published
 * before anyone plays, and the seed itself once the match is over; the match page and /verify/
 * check them. */
function fairDeal(view, family) {
  if (!view.commitment) return null;
  const short = (hex) => h("code", { title: hex }, `${hex.slice(0, 16)}…`);
  return h("p", { class: "aside fair-deal", id: "fair-deal", dataset: { commitment: view.commitment } },
    `${t("Fair deal")} · ${roundWord(family)} ${view.round}: `, t("commitment (SHA-256 of the seed)"), " ", short(view.commitment),
    view.revealed_seed ? [" · ", t("seed revealed"), " ", short(view.revealed_seed)] : null);
}
