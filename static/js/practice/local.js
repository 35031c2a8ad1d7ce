// The practice game's connection object: what the table (tableapp.js) talks to in place of the
// match socket (connection.js), with the same methods, so the table cannot tell a local game
// from a live one except by this object (docs/practice.md).
//
// Commands go to the engine in the worker (games/practice/game.py) and come back as the frames the
// site would send. Between the player's turns the bots move one at a time, `delay` ms apart,
// each move a frame of its own; they wait at the end of a round until the player goes on
// (resumeBots). After every change the game's record is handed to `onRecord` (kept on the device).

import { t } from "../i18n.js";

export class LocalConnection {
  /**
   * @param {import("./engine.js").PracticeEngine} engine
   * @param {{delay?: number, onRecord?: Function, onBotMove?: Function, onChange?: Function}} options
   */
  constructor(engine, { delay = 700, onRecord = () => {}, onBotMove = () => {}, onChange = () => {} } = {}) {
    this.engine = engine;
    this.delay = delay;
    this.onRecord = onRecord;
    this.onBotMove = onBotMove; // ({seat, level, ms}) after each bot move (the benchmark reads it)
    this.onChange = onChange; // (frame) after every frame the table is given
    /** @type {(frame: any) => void} */
    this.onFrame = () => {};
    /** @type {(status: string, detail?: string) => void} */
    this.onStatus = () => {};
    /** @type {(() => void) | null} */
    this.onOpen = null;
    this.pending = null;
    this.botSeat = null; // the bot to move, if any
    this.held = false; // the bots wait (the end of a round, until the player goes on)
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.busy = Promise.resolve();
    this.frame = null; // the newest frame
    this.stopped = false; // the game was left: answers still on their way are dropped
  }

  /** Leave the game: no more bot moves, nothing more kept. */
  stop() {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Set the table's handlers: onFrame(frame), onStatus(status, detail), onOpen(). */
  attach({ onFrame, onStatus, onOpen }) {
    if (onFrame) this.onFrame = onFrame;
    if (onStatus) this.onStatus = onStatus;
    if (onOpen) this.onOpen = onOpen;
  }

  get isOpen() {
    return true;
  }

  /** The game is already loaded (its first frame is the table's); the bots start if it is theirs.
   * The table's status line says what this connection is: practice, on the device. */
  start(answer = null) {
    this.onStatus("live", t("Practice · offline"));
    if (this.onOpen) this.onOpen();
    if (answer) this.absorb(answer);
  }

  /** Queue a call to the engine after the ones before it (the worker answers in order anyway). */
  run(name, args) {
    const call = this.busy.then(() => this.engine.call(name, args));
    this.busy = call.catch(() => {});
    return call;
  }

  /** Take in an answer of the engine: its record, the bot to move. */
  absorb(answer) {
    if (!answer || answer.error || this.stopped) return;
    if (answer.record) this.onRecord(answer.record);
    this.botSeat = answer.bot;
    this.scheduleBot();
  }

  deliver(frame) {
    if (this.stopped) return;
    if (frame.type === "state") {
      this.frame = frame;
      if ((frame.events || []).some((e) => e.kind === "round_over") && frame.view.phase !== "over") this.held = true;
    }
    this.settle(frame);
    this.onFrame(frame);
    if (frame.type === "state") this.onChange(frame);
  }

  settle(frame) {
    const pending = this.pending;
    if (!pending) return;
    if ((frame.type === "error" || frame.type === "ack") && String(frame.id) === String(pending.id)) this.pending = null;
    else if (frame.type === "state" && frame.version > pending.version) this.pending = null;
  }

  /** A move of the player: true if sent (false while another waits for its answer). */
  sendCommand(command) {
    if (this.pending) return false;
    this.pending = command;
    this.run("command", command).then(
      (answer) => {
        if (answer.error) {
          this.deliver({ type: "error", id: command.id, code: answer.error.code, message: answer.error.message });
          return;
        }
        for (const frame of answer.ok.frames) this.deliver(frame);
        this.absorb(answer);
      },
      (error) => this.deliver({ type: "error", id: command.id, code: "server_error", message: String(error.message || error) }),
    );
    return true;
  }

  /** Seat messages of a live table (away, back, chat): nothing to say to the bots. */
  /** @param {object} [_message] the table's message (practice has no seat to take back) */
  send(_message) {
    return false;
  }

  sendRaw(message) {
    return this.send(message);
  }

  /** The rack's question, answered by the engine in the worker (games.play.rack.check). */
  checkRack(query) {
    return this.run("rack", query).then((answer) => {
      if (answer.error) throw new Error(answer.error.message);
      if (answer.ok.error) throw new Error(answer.ok.error.message);
      return answer.ok;
    });
  }

  resync() {
    this.run("frame").then((answer) => answer.ok && this.deliver(answer.ok.frame));
  }

  drop() {}

  // --- the bots --------------------------------------------------------------------------------

  scheduleBot() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.botSeat === null || this.botSeat === undefined || this.held || this.stopped) return;
    this.timer = setTimeout(() => this.botMove(), this.delay);
  }

  botMove() {
    this.timer = null;
    return this.run("bot").then((answer) => {
      if (answer.error) return; // not a bot's turn any more (a take-back came first)
      this.deliver(answer.ok.frame);
      this.onBotMove({ seat: answer.ok.seat, level: answer.ok.level, ms: answer.ok.ms });
      this.absorb(answer);
    });
  }

  /** The player has seen the end of the round: the bots go on. */
  resumeBots() {
    this.held = false;
    this.scheduleBot();
  }

  // --- what only practice has ----------------------------------------------------------------

  /** Take back the player's last move (and the bots' after it). */
  takeBack() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    return this.run("take_back").then((answer) => {
      if (answer.error) return answer;
      this.pending = null;
      this.held = false;
      this.deliver(answer.ok.frame);
      this.absorb(answer);
      return answer;
    });
  }

  /** The hard bot's move for the player, and the engine's facts about it. */
  hint() {
    return this.run("hint").then((answer) => {
      if (answer.record) this.onRecord(answer.record);
      return answer;
    });
  }
}
