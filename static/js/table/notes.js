// The notes of the engine's score lines ("went out", "knocked with 5 against 12: 7 (GIN-19)") in
// the player's language. The same list as games/i18n_rules.py's SCORE_NOTES: a note's numbers
// are taken out (%(n1)s, %(n2)s, ... in order), the template looked up, the numbers put back; a
// note not listed stays as the engine wrote it.

import { t } from "../i18n.js";

const NOTES = {
  "went out": (v) => t("went out", v),
  "went out with a joker": (v) => t("went out with a joker", v),
  "never laid a formation: %(n1)s (RMI-58)": (v) => t("never laid a formation: %(n1)s (RMI-58)", v),
  "dealt the atu's twin": (v) => t("dealt the atu's twin", v),
  "doubled round: the atu is a joker or an ace (RMI-48)": (v) => t("doubled round: the atu is a joker or an ace (RMI-48)", v),
  "no winner: the pool is returned (R40-Q15)": (v) => t("no winner: the pool is returned (R40-Q15)", v),
  "Remik: out in one go (R40-26)": (v) => t("Remik: out in one go (R40-26)", v),
  "went out (R40-26)": (v) => t("went out (R40-26)", v),
  "void round (R51-Q9)": (v) => t("void round (R51-Q9)", v),
  "doubled: the winner went out in one go (R51-45)": (v) => t("doubled: the winner went out in one go (R51-45)", v),
  "the stock ran out (R500-Q7)": (v) => t("the stock ran out (R500-Q7)", v),
  "counted at the best arrangement, %(n1)s (GIN-Q8), not %(n2)s as laid": (v) => t("counted at the best arrangement, %(n1)s (GIN-Q8), not %(n2)s as laid", v),
  "gin: the opponent's %(n1)s + %(n2)s (GIN-20)": (v) => t("gin: the opponent's %(n1)s + %(n2)s (GIN-20)", v),
  "knocked with %(n1)s against %(n2)s: %(n3)s (GIN-19)": (v) => t("knocked with %(n1)s against %(n2)s: %(n3)s (GIN-19)", v),
  "undercut: %(n1)s against the knock with %(n2)s: %(n3)s + %(n4)s (GIN-19, GIN-Q2)": (v) => t("undercut: %(n1)s against the knock with %(n2)s: %(n3)s + %(n4)s (GIN-19, GIN-Q2)", v),
  "knocked with %(n1)s and was undercut": (v) => t("knocked with %(n1)s and was undercut", v),
  "win no. %(n1)s: its columns are finished (OKL-Q3)": (v) => t("win no. %(n1)s: its columns are finished (OKL-Q3)", v),
  "void deal: two cards left in the stock and nobody knocked (GIN-22)": (v) => t("void deal: two cards left in the stock and nobody knocked (GIN-22)", v),
  "void deal: two cards left in the stock (K108-Q16)": (v) => t("void deal: two cards left in the stock (K108-Q16)", v),
  "takes the pool: %(n1)s chips (K108-28)": (v) => t("takes the pool: %(n1)s chips (K108-28)", v),
  "no winner: the pool is returned": (v) => t("no winner: the pool is returned", v),
  "out of the game": (v) => t("out of the game", v),
  "bought back in for %(n1)s chips (%(n2)s stakes); record %(n3)s -> %(n4)s (K108-26)": (v) => t("bought back in for %(n1)s chips (%(n2)s stakes); record %(n3)s -> %(n4)s (K108-26)", v),
};

/** A number in a note: not part of a rule id (R51-45) or a word. */
const NUMBER = /(?<![\w-])[+-]?\d+(?!\w)/g;

/** The note in the page's language. */
export function noteText(note) {
  const values = {};
  let count = 0;
  const template = String(note).replace(NUMBER, (found) => {
    count += 1;
    values[`n${count}`] = found;
    return `%(n${count})s`;
  });
  const translate = NOTES[template];
  return translate ? translate(values) : String(note);
}
