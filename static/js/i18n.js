// Translations for the scripts: the page's language, t() / tn() / pt() over Django's JavaScript
// catalog, and card and suit names in that language (docs/i18n.md).
//
// base.html loads /jsi18n/ (django.views.i18n.JavaScriptCatalog) before any module; it defines
// window.gettext, ngettext, pgettext and interpolate with the messages of locale/*/djangojs.po.
// Without it (a test page, a file opened directly) every function falls back to English.
//
// Strings are extracted by `python manage.py makemessages -d djangojs` (accounts' makemessages
// knows t, tn and pt); write the English text literally inside the call, never a variable.

const catalog = () => (typeof window !== "undefined" ? window : {});

/** The page's language ("en", "pl", "ro"), from <html lang>. */
export function language() {
  const lang = typeof document !== "undefined" ? document.documentElement.lang : "";
  return (lang || "en").toLowerCase().split("-")[0];
}

/**
 * The translation of `msgid`; `values` fills %(name)s placeholders.
 * t("Draw") -> "Dobierz"; t("%(name)s to move", { name: "Ala" }) -> "Ruch: Ala".
 */
export function t(msgid, values) {
  const { gettext } = catalog();
  const text = typeof gettext === "function" ? gettext(msgid) : msgid;
  return values ? fill(text, values) : text;
}

/**
 * Singular or plural by `n` (Polish and Romanian have three forms; the catalog knows them).
 * `%(n)s` in the text is replaced by n, other placeholders from `values`.
 */
export function tn(singular, plural, n, values) {
  const { ngettext } = catalog();
  const text = typeof ngettext === "function" ? ngettext(singular, plural, n) : n === 1 ? singular : plural;
  return fill(text, { n, ...(values || {}) });
}

/** A translation with a context, for words that differ by use ("card" rank vs. "meld" kind). */
export function pt(context, msgid, values) {
  const { pgettext } = catalog();
  const text = typeof pgettext === "function" ? pgettext(context, msgid) : msgid;
  return values ? fill(text, values) : text;
}

function fill(text, values) {
  return String(text).replace(/%\((\w+)\)s/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

// --- cards ---------------------------------------------------------------------------------------
// The names are looked up when asked for (not at import), so they follow the loaded catalog.
// Polish and Romanian use their card-table words: as, król, dama, walet; kier, karo, trefl, pik /
// as, popă, damă, valet; inimă roșie, romb, treflă, pică.

const RANK_NAMES = {
  A: () => pt("rank", "ace"),
  2: () => pt("rank", "two"),
  3: () => pt("rank", "three"),
  4: () => pt("rank", "four"),
  5: () => pt("rank", "five"),
  6: () => pt("rank", "six"),
  7: () => pt("rank", "seven"),
  8: () => pt("rank", "eight"),
  9: () => pt("rank", "nine"),
  T: () => pt("rank", "ten"),
  J: () => pt("rank", "jack"),
  Q: () => pt("rank", "queen"),
  K: () => pt("rank", "king"),
};

const SUIT_NAMES = {
  S: () => pt("suit", "spades"),
  H: () => pt("suit", "hearts"),
  D: () => pt("suit", "diamonds"),
  C: () => pt("suit", "clubs"),
};

const MELD_KINDS = {
  set: () => pt("meld", "set"),
  run: () => pt("meld", "run"),
};

/** A table meld's kind as the server names it ("set", "run") in the page's language. */
export function meldKind(kind) {
  return MELD_KINDS[kind] ? MELD_KINDS[kind]() : String(kind);
}

const CARD_RE = /^(?:([2-9TJQKA])([SHDC])|(JK))(?:#\d+)?(?:\(([2-9TJQKA])([SHDC])\))?$/;

/** "7" -> "seven" / "siódemka" / "șapte"; "T" or "10" -> the ten. */
export function rankName(rank) {
  const key = rank === "10" ? "T" : String(rank).toUpperCase();
  return RANK_NAMES[key] ? RANK_NAMES[key]() : String(rank);
}

/** "H" -> "hearts" / "kier" / "inimă roșie". */
export function suitName(suit) {
  const key = String(suit).toUpperCase();
  return SUIT_NAMES[key] ? SUIT_NAMES[key]() : String(suit);
}

/**
 * A card's spoken name in the page's language, from the engine's notation:
 * cardName("7H") -> "seven of hearts" / "siódemka kier" / "șapte de inimă roșie";
 * "JK#2(5D)" -> "joker as five of diamonds"; a copy number ("#2") is not spoken.
 */
export function cardName(text) {
  const m = CARD_RE.exec(String(text));
  if (!m) return String(text);
  if (m[3]) {
    if (!m[4]) return pt("card", "joker");
    return pt("card", "joker as %(card)s", { card: cardName(m[4] + m[5]) });
  }
  return pt("card", "%(rank)s of %(suit)s", { rank: rankName(m[1]), suit: suitName(m[2]) });
}
