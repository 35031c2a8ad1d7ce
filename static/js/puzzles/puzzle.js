// A puzzle on the table (docs/learn.md, "Puzzles"): the live table's modules (static/js/table/main.js)
// on a connection object of this page's own, with the socket's methods (attach, start,
// sendCommand, send, checkRack), as practice does (docs/practice.md). The answer goes to the
// site (POST /puzzles/<id>/answer/), where the engine checks it; the engine's explanation
// comes back and is shown under the table. No rule is decided here.

import { h, patch } from "../dom.js";
import { t } from "../i18n.js";

const config = JSON.parse(document.getElementById("puzzle-config").textContent);
const frame = JSON.parse(document.getElementById("initial-frame").textContent);
const page = document.getElementById("puzzle");
const resultBox = document.getElementById("puzzle-result");

function csrfToken() {
  const m = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : "";
}

/** "7H#2" -> "7H", "JK#1(5D)" -> "JK(5D)": the cards as people read them. */
function shortCard(text) {
  return String(text).replace(/#\d+/, "");
}

class PuzzleConnection {
  constructor() {
    this.onFrame = () => {};
    this.onStatus = () => {};
    this.onOpen = null;
    this.pending = null;
    this.done = false;
  }

  attach({ onFrame, onStatus, onOpen }) {
    if (onFrame) this.onFrame = onFrame;
    if (onStatus) this.onStatus = onStatus;
    if (onOpen) this.onOpen = onOpen;
  }

  get isOpen() {
    return true;
  }

  start() {
    this.onStatus("live");
    if (this.onOpen) this.onOpen();
  }

  deliver(next) {
    if (next.type === "error" || next.type === "ack") this.pending = null;
    else if (next.type === "state") this.pending = null;
    this.onFrame(next);
  }

  /** The player's move is the answer: the engine's verdict comes back. */
  sendCommand(command) {
    if (this.pending || this.done) return false;
    this.pending = command;
    page.dataset.state = "checking";
    fetch(config.answerUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ move: command.move }),
    })
      .then((response) => response.json())
      .then((answer) => {
        if (answer.correct === undefined) {
          this.deliver({ type: "error", id: command.id, code: answer.code, message: answer.message });
          page.dataset.state = "playing";
          return;
        }
        this.done = true;
        if (answer.frame) this.deliver(answer.frame);
        else this.deliver({ type: "error", id: command.id, code: answer.code, message: answer.message });
        showResult(answer, command.move);
      })
      .catch((error) => {
        this.deliver({ type: "error", id: command.id, code: "server_error", message: String(error.message || error) });
        page.dataset.state = "playing";
      });
    return true;
  }

  send() {
    return false;
  }

  sendRaw() {
    return false;
  }

  checkRack(query) {
    const url = `${config.rackUrl}?q=${encodeURIComponent(JSON.stringify(query))}`;
    return fetch(url, { credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error(`rack check: ${response.status}`);
      return response.json();
    });
  }

  resync() {}

  drop() {}
}

function meldList(explanation) {
  if (!explanation || !explanation.melds) return null;
  return h(
    "ul",
    { class: "puzzle-melds" },
    explanation.melds.map((meld) =>
      h("li", {}, h("span", { class: "puzzle-meld" }, meld.cards.map(shortCard).join(" ")), " ",
        t("%(n)s points", { n: meld.points }))),
  );
}

function explainLine(explanation) {
  if (!explanation) return null;
  return h("p", { class: "puzzle-points" },
    t("Counted towards the opening: %(points)s of the %(need)s needed.", { points: explanation.points, need: explanation.required_points }),
    explanation.exchanges && explanation.exchanges.length
      ? ` ${t("Jokers bought back: %(n)s.", { n: explanation.exchanges.length })}` : "");
}

/** The knock and discard kinds: the evaluator's expected points of each alternative it played out. */
function figures(explanation, played) {
  if (!explanation || !explanation.alternatives) return null;
  const said = { knock: t("Knock now"), draw_on: t("Draw on") };
  const label = (a) => (a.card ? t("Discard %(card)s", { card: shortCard(a.card) }) : said[a.choice] || a.choice);
  const values = {
    margin: explanation.margin.toFixed(1),
    error: (explanation.error || 0).toFixed(1),
    n: explanation.samples,
    top: explanation.top,
  };
  const mine = played && played.card ? shortCard(played.card) : null;
  const considered = !mine || !explanation.top || explanation.alternatives.some((a) => a.card && shortCard(a.card) === mine);
  return [
    h("ul", { class: "puzzle-figures" },
      explanation.alternatives.map((a) => {
        const line = [`${label(a)}: `, t("%(points)s points expected", { points: a.points.toFixed(1) })];
        return mine && a.card && shortCard(a.card) === mine
          ? h("li", { class: "played" }, h("strong", {}, line), " ", t("(your discard)"))
          : h("li", {}, line);
      })),
    explanation.top
      ? h("p", { class: "aside" }, t("The best discard is ahead of the second best of the hard bot's %(top)s best discards by %(margin)s ± %(error)s points, over %(n)s deals of the unseen cards.", values))
      : h("p", { class: "aside" }, t("Margin %(margin)s ± %(error)s points over %(n)s deals of the unseen cards.", values)),
    considered ? null : h("p", { class: "aside", id: "puzzle-not-considered" },
      t("Your discard is not among the hard bot's best discards: the engine did not play it out.")),
  ];
}

function explained(explanation, played) {
  if (explanation && explanation.alternatives) return figures(explanation, played);
  return [meldList(explanation), explainLine(explanation)];
}

const AGREES = { knock: () => t("The engine agrees:"), discard: () => t("The engine agrees:") };
const CHOICE = { knock: () => t("The engine's choice:"), discard: () => t("The engine's choice:") };

function showResult(answer, played) {
  page.dataset.state = answer.correct ? "solved" : "failed";
  page.dataset.code = answer.code;
  const rating = answer.rated
    ? h("p", { class: "puzzle-rating-change", id: "puzzle-rating-change" },
        t("Your puzzle rating: %(rating)s (%(change)s).", {
          rating: answer.rating,
          change: `${answer.rating_change >= 0 ? "+" : ""}${answer.rating_change}`,
        }))
    : answer.rating !== null && answer.rating !== undefined
      ? h("p", { class: "aside" }, t("Only your first answer to a puzzle is rated."))
      : null;
  patch(
    resultBox,
    h("div", { class: `puzzle-verdict ${answer.correct ? "solved" : "failed"}`, id: "puzzle-verdict", role: "status" },
      h("p", {}, h("strong", {}, answer.correct ? t("Solved!") : t("Not this time.")), " ", answer.message, " ",
        h("code", {}, answer.code)),
      answer.correct
        ? [h("p", {}, AGREES[config.kind] ? AGREES[config.kind]() : t("The engine accepts your opening:")), explained(answer.explanation, played)]
        : answer.answer_explanation
          ? [h("p", {}, CHOICE[config.kind] ? CHOICE[config.kind]() : t("One answer the engine accepts:")), explained(answer.answer_explanation, played)]
          : h("p", { class: "aside", id: "puzzle-no-solution" }, t("The engine's answer is shown only after a rated try: log in, and it comes with your first answer.")),
      rating,
      h("p", {}, h("a", { class: "button", href: config.nextUrl, id: "puzzle-next" }, t("Next puzzle")))),
  );
  resultBox.hidden = false;
  resultBox.scrollIntoView({ block: "nearest" });
}

const connection = new PuzzleConnection();
window.remiTableHost = { frame, key: `puzzle-${config.puzzle}`, connection };
window.remiPuzzle = { connection };
await import(page.dataset.table);
page.dataset.state = "playing";
