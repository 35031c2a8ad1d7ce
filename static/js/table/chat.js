// The room's chat in the match page (docs/protocol.md, "Chat"): mount(container, connection).
//
// Self-contained: it builds its own markup inside `container`, listens to the match socket's
// frames (connection.listen) and sends its commands with connection.sendRaw. Every text a
// player typed is put in the page with textContent (the h() builder makes text nodes), never
// as markup. The history is asked for each time the socket opens (a reconnect included).

import { h, patch } from "../dom.js";
import { t } from "../i18n.js";

const MAX_LENGTH = 300;
const MAX_LINES = 200; // lines kept in the page; older ones drop off the top

let counter = 0;
const nextId = () => `chat-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * Show the chat in `container` and wire it to `connection` (connection.js's MatchConnection, or
 * anything with listen({onFrame, onOpen}) and sendRaw(message)). Returns {unmount, state}.
 */
export function mount(container, connection) {
  const state = {
    lines: [], // {id, author, seat, text, sent}
    muted: new Set(),
    me: null, // {name, staff} once the history came
    ours: new Set(), // ids of the commands this panel sent (their refusals are shown here)
    unread: 0,
  };

  const list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-label": t("Chat messages") });
  const input = h("input", {
    type: "text",
    id: "chat-input",
    class: "chat-input",
    maxlength: String(MAX_LENGTH),
    autocomplete: "off",
    "aria-label": t("Message"),
    placeholder: t("Write to the table…"),
  });
  const send = h("button", { type: "submit", class: "chat-send", id: "chat-send" }, t("Send"));
  const note = h("p", { class: "chat-note", id: "chat-note", role: "status" });
  const mutedBox = h("p", { class: "chat-muted", id: "chat-muted" });
  const form = h("form", { class: "chat-form", id: "chat-form" }, input, send);
  const empty = h("p", { class: "chat-empty", id: "chat-empty" }, t("No messages yet."));

  patch(
    container,
    h("h2", { class: "chat-title" }, t("Chat")),
    empty,
    list,
    form,
    note,
    mutedBox,
  );
  container.classList.add("chat");

  function command(message) {
    const id = nextId();
    state.ours.add(id);
    if (!connection.sendRaw({ ...message, id })) {
      showNote(t("Not connected: try again in a moment."));
      state.ours.delete(id);
      return false;
    }
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
        h("button", { type: "button", class: "chat-tool chat-mute", onclick: () => command({ type: "chat_mute", name: line.author, mute: true }) }, t("Mute")),
        h("button", { type: "button", class: "chat-tool chat-report", onclick: () => command({ type: "chat_report", message: line.id }) }, t("Report")),
      );
    }
    if (state.me && state.me.staff) {
      tools.push(h("button", { type: "button", class: "chat-tool chat-delete", onclick: () => command({ type: "chat_delete", message: line.id }) }, t("Delete")));
    }
    const when = new Date(line.sent);
    const time = Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
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
          h("button", { type: "button", class: "chat-tool chat-unmute", title: t("Unmute"), onclick: () => command({ type: "chat_mute", name, mute: false }) }, `${name} ✕`),
        ]),
      );
    } else {
      patch(mutedBox);
    }
    if (atBottom || shown.length <= 1) list.scrollTop = list.scrollHeight;
  }

  function markUnread(n) {
    state.unread = n;
    if (n > 0) container.dataset.unread = String(n);
    else delete container.dataset.unread;
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
        }
        return;
      default:
    }
  }

  const askHistory = () => connection.sendRaw({ type: "chat_history" });
  const stop = connection.listen({ onFrame, onOpen: askHistory });
  if (connection.isOpen) askHistory();

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
