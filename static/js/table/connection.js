// The match socket: connect, hand state frames and answers to the table, reconnect with backoff,
// and resend a command nobody answered with the SAME id (the server applies an id only once).
//
// Contract: docs/protocol.md. On every (re)connect the server sends a full state frame, so a
// reconnect is also the resync.

import { t } from "../i18n.js";

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 15000];
const CLOSE_FLOODED = 4429; // too many messages: come back later, slower
const ANSWER_TIMEOUT_MS = 10000; // no answer to a command by then: reconnect, and resend it
const NO_RETRY = { 4401: t("not logged in"), 4404: t("no such match") };

export class MatchConnection {
  /**
   * @param {string} url ws(s)://host/ws/match/<id>/
   * @param {{onFrame: Function, onStatus: Function, onOpen?: Function | null}} handlers
   *   onFrame(frame) gets every parsed frame (state, error, ack);
   *   onStatus(status, detail) gets "connecting" | "live" | "reconnecting" | "closed".
   */
  constructor(url, { onFrame, onStatus, onOpen = null }) {
    this.url = url;
    this.onOpen = onOpen;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.stopped = false;
    this.pending = null; // the command sent and not yet answered: {id, version, ...}
  }

  start() {
    this.stopped = false;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
    this.open();
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  open() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      if (this.onOpen) this.onOpen();
      // A command sent before the drop may or may not have been applied: send it again with
      // its id. Applied already: the server answers with an ack and a fresh frame.
      if (this.pending) socket.send(JSON.stringify(this.pending));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === "state") {
        this.attempt = 0;
        this.onStatus("live");
      }
      this.settle(frame);
      this.onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (event.code === CLOSE_FLOODED) this.attempt = Math.max(this.attempt, 3);
      if (event.code in NO_RETRY) {
        this.pending = null;
        this.onStatus("closed", NO_RETRY[event.code]);
        return;
      }
      this.scheduleRetry();
    });
  }

  /** Forget the pending command once the server has answered it. */
  settle(frame) {
    const pending = this.pending;
    if (!pending) return;
    if (frame.type === "error" && frame.code === "rate_limited" && String(frame.id) === String(pending.id)) {
      // Not read by the server: send the same command again once the budget allows.
      const wait = Math.max(100, Math.ceil(Number(frame.retry_after || 0.5) * 1000));
      setTimeout(() => {
        if (this.pending === pending && this.isOpen) /** @type {WebSocket} */ (this.socket).send(JSON.stringify(pending));
      }, wait);
    } else if ((frame.type === "error" || frame.type === "ack") && String(frame.id) === String(pending.id)) {
      this.pending = null;
    } else if (frame.type === "state" && frame.version > pending.version) {
      // The game moved on past the version the command was made for: it was applied (the
      // broadcast of our own move), or it will be refused as stale and answered anyway.
      this.pending = null;
    }
  }

  scheduleRetry() {
    if (this.stopped || this.timer) return;
    const base = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)];
    const delay = base + Math.floor(Math.random() * base * 0.3);
    this.attempt += 1;
    this.onStatus("reconnecting", delay);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, delay);
  }

  /** Skip the wait after the network came back or the page became visible again. */
  reconnectNow() {
    if (this.stopped || this.socket) return;
    if (this.timer) {
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
      this.open();
    }
  }

  /** Drop the socket as if the network failed (used by the tests and the "reconnect" button). */
  drop() {
    if (this.socket) this.socket.close();
    else this.reconnectNow();
  }

  /**
   * Send a move command; it stays pending (and is resent after a reconnect) until answered.
   * Returns false if another command is still waiting for its answer.
   */
  sendCommand(command) {
    if (this.pending) return false;
    this.pending = command;
    if (this.isOpen) /** @type {WebSocket} */ (this.socket).send(JSON.stringify(command));
    this.watch(command);
    return true;
  }

  /** If nothing answers the command in time, start a new connection (which resends it). */
  watch(command) {
    setTimeout(() => {
      if (this.pending !== command) return;
      if (this.isOpen) this.drop();
      this.watch(command);
    }, ANSWER_TIMEOUT_MS);
  }

  /** Send a control message that is not a move ("away", "back"); false if the socket is down. */
  sendRaw(message) {
    if (!this.isOpen) return false;
    /** @type {WebSocket} */ (this.socket).send(JSON.stringify(message));
    return true;
  }

  resync() {
    if (this.isOpen) /** @type {WebSocket} */ (this.socket).send(JSON.stringify({ type: "resync" }));
  }
}

let counter = 0;

/** A client command id, unique across reloads and tabs (1–64 characters). */
export function newCommandId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  const random = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  counter += 1;
  return `c${Date.now().toString(36)}${random}${counter}`;
}
