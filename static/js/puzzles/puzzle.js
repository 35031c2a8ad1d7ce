// A puzzle on the table (docs/learn.md, "Puzzles"): the live table's modules (static/js/table/main.js)
// on a connection object of this page's own, with the socket's methods (attach, start,
// sendCommand, send, checkRack), as practice does (docs/practice.md). The answer goes to the
// site (POST /puzzles/<id>/answer/), where the engine checks it; the engine's explanation
// comes back and is shown under the table. No rule is decided here.

import { h, patch } from "../dom.js";
import { t } from "../i18n.js";
import { figureLines, headline, introLine, meldLines, noSolutionLine, pointsLine, ratingLine } from "./verdict.js";

// The page's parts (templates/games/puzzle.html has every one of them).
/** @param {string} id */
const part = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const config = JSON.parse(part("puzzle-config").textContent || "null");
const frame = JSON.parse(part("initial-frame").textContent || "null");
const page = part("puzzle");
const resultBox = part("puzzle-result");

function csrfToken() {
  const m = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : "";
}

class PuzzleConnection {
  constructor() {
    /** @type {(frame: any) => void} */
    this.onFrame = () => {};
    /** @type {(status: string, detail?: string) => void} */
    this.onStatus = () => {};
    /** @type {(() => void) | null} */
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

function explained(explanation, played) {
  const figures = figureLines(explanation, played);
  if (figures) {
    return [
      h("ul", { class: "puzzle-figures" },
        figures.rows.map((row) => (row.played
          ? h("li", { class: "played" }, h("strong", {}, row.text), " ", figures.yours)
          : h("li", {}, row.text)))),
      h("p", { class: "aside" }, figures.margin),
      figures.notConsidered ? h("p", { class: "aside", id: "puzzle-not-considered" }, figures.notConsidered) : null,
    ];
  }
  const melds = meldLines(explanation);
  return [
    melds.length
      ? h("ul", { class: "puzzle-melds" }, melds.map((meld) => h("li", {}, h("span", { class: "puzzle-meld" }, meld.cards), " ", meld.points)))
      : null,
    explanation ? h("p", { class: "puzzle-points" }, pointsLine(explanation)) : null,
  ];
}

function showResult(answer, played) {
  page.dataset.state = answer.correct ? "solved" : "failed";
  page.dataset.code = answer.code;
  const rated = ratingLine(answer);
  const rating = rated
    ? h("p", answer.rated ? { class: "puzzle-rating-change", id: "puzzle-rating-change" } : { class: "aside" }, rated)
    : null;
  const head = headline(answer);
  patch(
    resultBox,
    h("div", { class: `puzzle-verdict ${answer.correct ? "solved" : "failed"}`, id: "puzzle-verdict", role: "status", "data-code": answer.code },
      h("p", {}, h("strong", {}, head.strong), head.rest ? ` ${head.rest}` : ""),
      answer.correct
        ? [h("p", {}, introLine(config.kind, true)), explained(answer.explanation, played)]
        : answer.answer_explanation
          ? [h("p", {}, introLine(config.kind, false)), explained(answer.answer_explanation, played)]
          : h("p", { class: "aside", id: "puzzle-no-solution" }, noSolutionLine()),
      rating,
      h("p", {}, h("a", { class: "button", href: config.nextUrl, id: "puzzle-next" }, t("Next puzzle")))),
  );
  resultBox.hidden = false;
  resultBox.scrollIntoView({ block: "nearest" });
}

const connection = new PuzzleConnection();
window.remiTableHost = { frame, key: `puzzle-${config.puzzle}`, connection };
window.remiPuzzle = { connection };
await import(/** @type {string} */ (page.dataset.table));
page.dataset.state = "playing";
