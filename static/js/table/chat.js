// The room's chat in the match page (docs/protocol.md, "Chat"): mount(container, connection).
//
// Self-contained: it builds its own markup inside `container`, hears the match socket's frames
// as the table announces them (the document's "remi:frame" events, main.js) and sends its
// commands with connection.sendRaw. Every text a player typed is put in the page as text (the
// h() builder makes text nodes, i.e. textContent), never as markup. The history is asked for
// each time the socket (re)opens: a new connection.socket seen with a frame.

import { h, patch } from "../dom.js";
import { language, t } from "../i18n.js";

/** A chat line's time, hours and minutes, as the page's language writes them (docs/table.md). */
const TIME = new Intl.DateTimeFormat(language(), { hour: "2-digit", minute: "2-digit" });

/**
 * Hear every frame the table announces; a new socket (connect, reconnect) is told with the
 * first frame it brings. Returns a function that stops listening.
 */
/**
 * @param {any} connection the match socket (connection.js): its `socket` changes on each (re)connect
 * @param {{onFrame: (frame: AnyFrame) => void, onOpen?: (() => void) | null}} handlers
 */
export function listen(connection, { onFrame, onOpen = null }) {
  let socket = null;
  const handler = (event) => {
    if (onOpen && connection.socket && connection.socket !== socket) {
      socket = connection.socket;
      onOpen();
    }
    onFrame(event.detail);
  };
  document.addEventListener("remi:frame", handler);
  return () => document.removeEventListener("remi:frame", handler);
}

const MAX_LENGTH = 300;
const MAX_LINES = 200; // lines kept in the page; older ones drop off the top

// The panel's own look, kept with it (the table's stylesheet gives the drawer its place).
const STYLE = `
.chat { display: flex; flex-direction: column; gap: 0.5rem; }
.chat-lines { list-style: none; margin: 0; padding: 0; max-height: calc(100dvh - 13rem); overflow-y: auto; }
.chat-line { padding: 0.3rem 0; border-bottom: 1px solid #e3e7ea; overflow-wrap: anywhere; }
.chat-time { color: #5b6670; font-size: 0.8em; }
.chat-author { font-weight: 600; }
.chat-mine .chat-author { color: #1f5f46; }
.chat-tools { display: inline-flex; flex-wrap: wrap; gap: 0.25rem; margin-left: 0.4rem; }
.chat-tool { font-size: 0.8rem; padding: 0.1rem 0.45rem; min-height: 2rem; }
.chat-form { display: flex; gap: 0.5rem; }
.chat-input { flex: 1; min-width: 0; min-height: 44px; font-size: 1rem; }
.chat-send { min-height: 44px; min-width: 44px; }
.chat-note { min-height: 1.3em; margin: 0; color: #8a1c1c; }
.chat-empty, .chat-muted { margin: 0; color: #5b6670; }
@media (pointer: coarse), (max-width: 40rem) { .chat-tools .tbtn.chat-tool { min-height: 44px; min-width: 44px; } }
.chat-unread .drawer-toggle[aria-controls="drawer-chat"] { position: relative; }
.chat-unread .drawer-toggle[aria-controls="drawer-chat"]::after {
  content: var(--chat-unread); position: absolute; top: -0.4rem; right: -0.4rem; min-width: 1.1rem;
  padding: 0 0.25rem; border-radius: 999px; background: #b3261e; color: #fff; font-size: 0.7rem;
  line-height: 1.1rem; text-align: center;
}
.rematch { margin-top: 0.75rem; padding-top: 0.5rem; border-top: 1px solid #d5dade; }
.rematch-title { font-size: 1.05rem; margin: 0 0 0.25rem; }
.rematch-actions button, .rematch a.tbtn { min-height: 44px; min-width: 44px; }
`;

/** Put the chat's and the rematch offer's styles in the page once. */
export function ensureStyles() {
  if (document.getElementById("chat-style")) return;
  const style = document.createElement("style");
  style.id = "chat-style";
  style.textContent = STYLE;
  document.head.append(style);
}

let counter = 0;
const nextId = () => `chat-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * Show the chat in `container` and wire it to `connection` (connection.js's MatchConnection:
 * its sendRaw(message) and socket). Returns {unmount, state}.
 */
export function mount(container, connection) {
  /**
   * @type {{lines: any[], muted: Set<string>, me: {name: string, staff: boolean} | null, ours: Set<string>,
   *   lastLine: {id: string, text: string} | null, unread: number}}
   */
  const state = {
    lines: [], // {id, author, seat, text, sent}
    muted: new Set(),
    me: null, // {name, staff} once the history came
    ours: new Set(), // ids of the commands this panel sent (their refusals are shown here)
    lastLine: null, // the last chat line sent, {id, text}: a refused line comes back to the box
    unread: 0,
  };

  const list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-label": t("Chat messages") });
  const input = /** @type {HTMLInputElement} */ (h("input", {
    type: "text",
    id: "chat-input",
    class: "chat-input",
    maxlength: String(MAX_LENGTH),
    autocomplete: "off",
    "aria-label": t("Message"),
    placeholder: t("Write to the table…"),
  }));
  const send = h("button", { type: "submit", class: "tbtn primary chat-send", id: "chat-send" }, t("Send"));
  const note = h("p", { class: "chat-note", id: "chat-note", role: "status" });
  const mutedBox = h("p", { class: "chat-muted", id: "chat-muted" });
  const form = h("form", { class: "chat-form", id: "chat-form" }, input, send);
  const empty = h("p", { class: "chat-empty", id: "chat-empty" }, t("No messages yet."));

  ensureStyles();
  patch(container, empty, list, form, note, mutedBox);
  container.classList.add("chat");

  function command(message) {
    const id = nextId();
    state.ours.add(id);
    if (!connection.sendRaw({ ...message, id })) {
      showNote(t("Not connected: try again in a moment."));
      state.ours.delete(id);
      return false;
    }
    if (message.type === "chat") state.lastLine = { id, text: message.text };
    return true;
  }

  function showNote(text) {
    note.textContent = text || "";
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (command({ type: "chat", text })) {
      input.value = "";
      showNote("");
    }
  });
  input.addEventListener("input", () => {
    const left = MAX_LENGTH - input.value.length;
    showNote(left <= 30 ? t("%(n)s characters left", { n: left }) : "");
  });

  function lineNode(line) {
    const mine = state.me && line.author === state.me.name;
    const tools = [];
    if (!mine && state.me) {
      tools.push(
        h("button", { type: "button", class: "tbtn small quiet chat-tool chat-mute", onclick: () => command({ type: "chat_mute", name: line.author, mute: true }) }, t("Mute")),
        h("button", { type: "button", class: "tbtn small quiet chat-tool chat-report", onclick: () => command({ type: "chat_report", message: line.id }) }, t("Report")),
      );
    }
    if (state.me && state.me.staff) {
      tools.push(h("button", { type: "button", class: "tbtn small quiet chat-tool chat-delete", onclick: () => command({ type: "chat_delete", message: line.id }) }, t("Delete")));
    }
    const when = new Date(line.sent);
    // Written the page's way (its <html lang>, not the browser's): 20:24 in Polish and Romanian.
    const time = Number.isNaN(when.getTime()) ? "" : TIME.format(when);
    return h(
      "li",
      { class: mine ? "chat-line chat-mine" : "chat-line", dataset: { id: String(line.id), author: line.author } },
      h("time", { class: "chat-time", datetime: Number.isNaN(when.getTime()) ? null : when.toISOString() }, time),
      " ",
      h("span", { class: "chat-author" }, line.author + (line.seat === null || line.seat === undefined ? ` (${t("watching")})` : "")),
      ": ",
      h("span", { class: "chat-text" }, line.text),
      tools.length ? h("span", { class: "chat-tools" }, ...tools) : null,
    );
  }

  function render() {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    const shown = state.lines.filter((line) => !state.muted.has(line.author.toLowerCase()));
    patch(list, ...shown.map(lineNode));
    empty.hidden = shown.length > 0;
    if (state.muted.size) {
      patch(
        mutedBox,
        t("Muted:"),
        ...[...state.muted].sort().flatMap((name) => [
          " ",
          h("button", { type: "button", class: "tbtn small quiet chat-tool chat-unmute", title: t("Unmute"), onclick: () => command({ type: "chat_mute", name, mute: false }) }, `${name} ✕`),
        ]),
      );
    } else {
      patch(mutedBox);
    }
    if (atBottom || shown.length <= 1) list.scrollTop = list.scrollHeight;
  }

  // Lines that came while the panel was closed: counted on the panel and shown as a badge on
  // the button that opens it (the table's drawer toggle, found by what it controls).
  function markUnread(n) {
    state.unread = n;
    const root = document.documentElement;
    if (n > 0) {
      container.dataset.unread = String(n);
      root.classList.add("chat-unread");
      root.style.setProperty("--chat-unread", `"${n > 99 ? "99+" : n}"`);
    } else {
      delete container.dataset.unread;
      root.classList.remove("chat-unread");
    }
    container.dispatchEvent(new CustomEvent("chat:unread", { bubbles: true, detail: { unread: n } }));
  }

  function visible() {
    return container.offsetParent !== null && !container.closest("[hidden]");
  }

  function onFrame(frame) {
    switch (frame.type) {
      case "chat_history":
        state.me = frame.you || null;
        state.muted = new Set((frame.muted || []).map((n) => n.toLowerCase()));
        state.lines = frame.messages || [];
        render();
        return;
      case "chat":
        state.lines = [...state.lines.filter((l) => l.id !== frame.message.id), frame.message].slice(-MAX_LINES);
        render();
        if (!visible()) markUnread(state.unread + 1);
        return;
      case "chat_deleted":
        state.lines = state.lines.filter((l) => l.id !== frame.message);
        render();
        return;
      case "chat_muted":
        state.muted = new Set((frame.muted || []).map((n) => n.toLowerCase()));
        render();
        return;
      case "chat_reported":
        state.ours.delete(frame.id);
        showNote(t("Reported. Thank you: staff will look at it."));
        return;
      case "error":
        if (frame.id !== null && state.ours.has(frame.id)) {
          state.ours.delete(frame.id);
          showNote(frame.message);
          // Nothing typed is lost: a refused line goes back to the box (unless a new one is there).
          if (state.lastLine && state.lastLine.id === frame.id && !input.value) input.value = state.lastLine.text;
        }
        return;
      default:
    }
  }

  const askHistory = () => connection.sendRaw({ type: "chat_history" });
  const stop = listen(connection, { onFrame, onOpen: askHistory });

  // Opening the panel reads what came meanwhile.
  const seen = () => {
    if (visible()) markUnread(0);
  };
  const observer = typeof IntersectionObserver === "function" ? new IntersectionObserver(seen) : null;
  if (observer) observer.observe(container);

  return {
    state,
    unmount() {
      stop();
      if (observer) observer.disconnect();
      patch(container);
    },
  };
}
