// The action bar under the rack: the buttons of the turn (draw, take, pass, lay down, discard,
// the family's knock) and the hint line. The buttons send what the view's `you` hints list.

import { cardName, cardShort, faceOf } from "./cards.js";
import { h } from "../dom.js";
import { hasPlay, isEmpty } from "./draft.js";
import { familyHint, knockControls, offersBestMelds, takeAlone, turnStep } from "./families/index.js";
import { t, tn } from "../i18n.js";
import { errorHere } from "./render.js";
import { button, seatName } from "./widgets.js";

export function renderControls(model, f, act) {
  const { you, view, family } = f;
  const draft = model.draft;
  const selected = model.selected;
  const handSet = new Set(view.hand);
  // A hint may list one copy of each face (Knock-108's two decks): a twin is discarded alike.
  const discardable = new Set((you ? you.discards : []).map(faceOf));
  const one = selected.length === 1 && handSet.has(selected[0]) ? selected[0] : null;
  const canDiscard = f.canAct && f.moves.includes("discard") && one !== null && discardable.has(faceOf(one));
  const playing = f.taking || f.moves.includes("play");
  const canSubmit = f.canAct && hasPlay(draft) && playing;
  const takeable = you && you.takeable ? you.takeable : [];
  const step = turnStep(f);
  const buyBack = step === "buy_back"; // Knock-108's buy-back stage
  const controls = [];
  if (f.turnOpen && f.moves.includes("draw") && !f.taking) {
    controls.push(button(t("Draw from stock"), act.draw, { key: "draw", cls: "primary", disabled: !f.canAct }));
  }
  if (f.turnOpen && takeAlone(family) && f.moves.includes("take") && takeable.length) {
    const card = takeable[takeable.length - 1];
    const offer = step === "offer";
    controls.push(button(offer ? t("Take the up-card") : t("Take %(card)s", { card: cardShort(card) }), () => act.take(card),
      { key: "take", cls: offer ? "primary" : "", disabled: !f.canAct, ariaLabel: offer ? null : t("take %(card)s from the discards", { card: cardName(card, "acc") }) }));
  }
  if (f.turnOpen && buyBack && f.moves.includes("knock")) {
    const cost = you.buy_back ? ` (${tn("%(n)s chip", "%(n)s chips", you.buy_back.cost)})` : "";
    controls.push(button(`${t("Buy back in")}${cost}`, act.buyBack, { key: "buy-back", cls: "primary", disabled: !f.canAct }));
    controls.push(button(t("Stay out"), act.pass, { key: "pass", disabled: !f.canAct }));
  } else if (f.turnOpen && f.moves.includes("pass") && step !== "reply") {
    controls.push(button(step === "exchange" ? t("Pass (no exchange)") : t("Pass"), act.pass, { key: "pass", disabled: !f.canAct }));
  }
  if (f.canBuild) {
    controls.push(button(t("New meld from selected"), act.newMeld, { key: "new-meld", disabled: !f.canAct || !selected.length }));
    if (offersBestMelds(f) && !draft.melds.length) {
      controls.push(button(t("Use best melds"), act.useBestMelds, { key: "use-best", disabled: !f.canAct }));
    }
    if (playing) controls.push(button(f.taking ? t("Take and lay down") : t("Lay down"), act.submit, { key: "submit", cls: "primary", disabled: !canSubmit }));
    if (!isEmpty(draft)) controls.push(button(f.taking ? t("Cancel take") : t("Clear"), act.clear, { key: "clear", cls: "quiet", disabled: !f.canAct }));
  }
  if (f.turnOpen && f.moves.includes("discard")) {
    controls.push(button(t("Discard selected"), act.discard, { key: "discard", cls: "primary", disabled: !canDiscard }));
  }
  if (f.turnOpen && !buyBack && f.moves.includes("knock")) controls.push(...knockControls(f, act, one, discardable, draft));
  if (f.turnOpen && step === "reply" && f.moves.includes("pass")) {
    controls.push(button(t("Done"), act.pass, { key: "pass", disabled: !f.canAct, title: t("Lay the rest as well as it goes and count my hand") }));
  }
  if (f.seated && selected.length === 1 && model.rack.slots.includes(selected[0])) {
    controls.push(button(model.moving ? t("Tap a slot or a card") : t("Move"), act.startMove,
      { key: "move", cls: `quiet small${model.moving ? " pressed" : ""}`, ariaLabel: t("Move the selected card: tap where it goes"),
        ariaExpanded: Boolean(model.moving) }));
  }
  if (selected.length) controls.push(button(t("Unselect"), act.unselect, { key: "unselect", cls: "quiet small" }));

  // Nothing to press (another seat's turn): the bar is its hint line alone and the rack below
  // the cards gets its height (table.css), so nothing on the table moves when the turn comes.
  return h(
    "div",
    { class: `controls${controls.length ? "" : " idle"}`, id: "controls" },
    controls.length ? h("div", { class: "buttons" }, controls) : null,
    h("p", { class: "hint", id: "hint", title: hintText(model, f, step) || null }, hintText(model, f, step)),
    errorHere(model, f, "controls"),
  );
}

function hintText(model, f, step) {
  const { view } = f;
  if (model.pending) return t("Sending…");
  if (model.status !== "live") return t("Waiting for the connection…");
  if (f.paused) return t("Moves resume after the pause.");
  if (f.over) return "";
  if (!f.myTurn) return t("Waiting for %(name)s.", { name: seatName(view, view.turn) });
  return familyHint(f, step);
}
