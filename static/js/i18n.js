// Translations for the scripts: the page's language, t() / tn() / pt() over Django's JavaScript
// catalog, and card and suit names in that language (docs/i18n.md).
//
// base.html loads /jsi18n/ (django.views.i18n.JavaScriptCatalog) before any module; it defines
// window.gettext, ngettext, pgettext and interpolate with the messages of locale/*/djangojs.po.
// Without it (a test page, a file opened directly) every function falls back to English.
//
// Strings are extracted by `python manage.py makemessages -d djangojs` (accounts' makemessages
// knows t, tn and pt); write the English text literally inside the call, never a variable.

/** @returns {Partial<Window>} Django's catalog functions where the page loaded them */
const catalog = () => (typeof window !== "undefined" ? window : {});

/** The page's language ("en", "pl", "ro"), from <html lang>. */
export function language() {
  const lang = typeof document !== "undefined" ? document.documentElement.lang : "";
  return (lang || "en").toLowerCase().split("-")[0];
}

/**
 * The translation of `msgid`; `values` fills %(name)s placeholders.
 * t("Draw") -> "Dobierz"; t("%(name)s to move", { name: "Ala" }) -> "Ruch: Ala".
 * @param {string} msgid
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function t(msgid, values) {
  const { gettext } = catalog();
  const text = typeof gettext === "function" ? gettext(msgid) : msgid;
  return values ? fill(text, values) : text;
}

/**
 * Singular or plural by `n` (Polish and Romanian have three forms; the catalog knows them).
 * `%(n)s` in the text is replaced by n, other placeholders from `values`.
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function tn(singular, plural, n, values) {
  const { ngettext } = catalog();
  const text = typeof ngettext === "function" ? ngettext(singular, plural, n) : n === 1 ? singular : plural;
  return fill(text, { n, ...(values || {}) });
}

/**
 * A translation with a context, for words that differ by use ("card" rank vs. "meld" kind).
 * @param {string} context
 * @param {string} msgid
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function pt(context, msgid, values) {
  const { pgettext } = catalog();
  const text = typeof pgettext === "function" ? pgettext(context, msgid) : msgid;
  return values ? fill(text, values) : text;
}

/**
 * @param {string} text
 * @param {Record<string, unknown>} values
 */
function fill(text, values) {
  return String(text).replace(/%\((\w+)\)s/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

// --- cards ---------------------------------------------------------------------------------------
// The names are looked up when asked for (not at import), so they follow the loaded catalog.
// Polish and Romanian use their card-table words: as, król, dama, walet; kier, karo, trefl, pik /
// as, popă, damă, valet; inimă roșie, romb, treflă, pică.

/** @type {Record<string, () => string>} */
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

// The ranks as the object of a verb ("you discarded the seven of hearts"): Polish puts them in the
// accusative (siódemkę, damę, asa, króla, waleta); Romanian and English use the same words as
// above. Each language's catalog holds its own forms (docs/i18n.md, cards in sentences).
/** @type {Record<string, () => string>} */
const RANK_NAMES_ACC = {
  A: () => pt("rank, accusative", "ace"),
  2: () => pt("rank, accusative", "two"),
  3: () => pt("rank, accusative", "three"),
  4: () => pt("rank, accusative", "four"),
  5: () => pt("rank, accusative", "five"),
  6: () => pt("rank, accusative", "six"),
  7: () => pt("rank, accusative", "seven"),
  8: () => pt("rank, accusative", "eight"),
  9: () => pt("rank, accusative", "nine"),
  T: () => pt("rank, accusative", "ten"),
  J: () => pt("rank, accusative", "jack"),
  Q: () => pt("rank, accusative", "queen"),
  K: () => pt("rank, accusative", "king"),
};

/** @type {Record<string, () => string>} */
const SUIT_NAMES = {
  S: () => pt("suit", "spades"),
  H: () => pt("suit", "hearts"),
  D: () => pt("suit", "diamonds"),
  C: () => pt("suit", "clubs"),
};

/** @type {Record<string, () => string>} */
const MELD_KINDS = {
  set: () => pt("meld", "set"),
  run: () => pt("meld", "run"),
};

/**
 * A table meld's kind as the server names it ("set", "run") in the page's language.
 * @param {string} kind
 */
export function meldKind(kind) {
  return MELD_KINDS[kind] ? MELD_KINDS[kind]() : String(kind);
}

const CARD_RE = /^(?:([2-9TJQKA])([SHDC])|(JK))(?:#\d+)?(?:\(([2-9TJQKA])([SHDC])\))?$/;

/**
 * "7" -> "seven" / "siódemka" / "șapte"; "T" or "10" -> the ten. `form` "acc": as an object.
 * @param {string} rank
 * @param {string} [form]
 */
export function rankName(rank, form) {
  const key = rank === "10" ? "T" : String(rank).toUpperCase();
  const names = form === "acc" ? RANK_NAMES_ACC : RANK_NAMES;
  return names[key] ? names[key]() : String(rank);
}

/**
 * "H" -> "hearts" / "kier" / "inimă roșie".
 * @param {string} suit
 */
export function suitName(suit) {
  const key = String(suit).toUpperCase();
  return SUIT_NAMES[key] ? SUIT_NAMES[key]() : String(suit);
}

/**
 * A card's spoken name in the page's language, from the engine's notation:
 * cardName("7H") -> "seven of hearts" / "siódemka kier" / "șapte de inimă roșie";
 * "JK#2(5D)" -> "joker as five of diamonds"; a copy number ("#2") is not spoken. `form` "acc":
 * the card as the object of a verb (Polish "odrzucasz siódemkę kier", "jokera jako piątkę karo").
 * @param {string} text
 * @param {string} [form]
 * @returns {string}
 */
export function cardName(text, form) {
  const m = CARD_RE.exec(String(text));
  if (!m) return String(text);
  const context = form === "acc" ? "card, accusative" : "card";
  if (m[3]) {
    if (!m[4]) return pt(context, "joker");
    return pt(context, "joker as %(card)s", { card: cardName(m[4] + m[5], form) });
  }
  return pt("card", "%(rank)s of %(suit)s", { rank: rankName(m[1], form), suit: suitName(m[2]) });
}
