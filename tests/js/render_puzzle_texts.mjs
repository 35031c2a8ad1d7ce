// Renders the puzzle verdict's sentences for tests/site/test_puzzle_analysis_approved.py (not a
// unit test of its own): reads {catalogs: {pl: "<the /jsi18n/ script>", ...}, cases: [{language,
// kind, answer, played}]} on stdin and prints the lines each verdict shows, as JSON, with the page's
// real module (static/js/puzzles/verdict.js) and the site's real catalog.
import { figureLines, headline, introLine, meldLines, noSolutionLine, pointsLine, ratingLine } from "../../static/js/puzzles/verdict.js";
import { catalogLoader, readInput } from "./catalog.mjs";

const { catalogs, cases } = await readInput();
const load = catalogLoader(catalogs);
const out = [];
for (const item of cases) {
  load(item.language);
  const { answer, kind, played } = item;
  const head = headline(answer);
  const lines = [head.rest ? `${head.strong} ${head.rest}` : head.strong];
  const explanation = answer.correct ? answer.explanation : answer.answer_explanation;
  if (explanation) {
    lines.push(introLine(kind, answer.correct));
    const figures = figureLines(explanation, played);
    if (figures) {
      lines.push(...figures.rows.map((row) => (row.played ? `${row.text} ${figures.yours}` : row.text)), figures.margin);
      if (figures.notConsidered) lines.push(figures.notConsidered);
    } else {
      lines.push(...meldLines(explanation).map((meld) => `${meld.cards} ${meld.points}`), pointsLine(explanation));
    }
  } else {
    lines.push(noSolutionLine());
  }
  const rating = ratingLine(answer);
  if (rating) lines.push(rating);
  out.push(lines);
}
process.stdout.write(JSON.stringify(out));
