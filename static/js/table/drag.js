// Drag and drop with Pointer Events, for mouse, pen and touch alike (no library: a pointer is
// captured on press, a floating copy follows it, and the drop target is the element under it).
//
// Sources carry `data-drag="<payload>"`, targets `data-drop="<name>"`. A press that moves less
// than THRESHOLD pixels stays a click (tap a card, then a slot: RMI-UI-4); after a real drag the
// click that the browser sends afterwards is swallowed. Sources get `touch-action: none` in CSS
// so that a finger drags the card instead of scrolling the page.

const THRESHOLD = 6;
const EDGE = 40; // px from the top or bottom edge where a drag scrolls the page
const STEP = 12;
const TAP_WINDOW_MS = 700;

/**
 * @param {HTMLElement} root where sources and targets live
 * @param {{drop: (payload: string, target: string, el: HTMLElement) => void,
 *          accepts?: (payload: string, target: string) => boolean}} handlers
 */
export function installDrag(root, { drop, accepts = () => true }) {
  let press = null; // {id, x, y, el, payload, ghost, over}
  let swallowClick = false;
  let tapUntil = 0; // a finger's tap was clicked by the page until then
  let clicking = false;
  let tapAt = null; // where that finger's tap was

  const targetAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const target = el && el.closest("[data-drop]");
    return target && root.contains(target) ? target : null;
  };

  const mark = (target) => {
    if (press.over === target) return;
    if (press.over) press.over.classList.remove("drop-over");
    press.over = target && accepts(press.payload, target.dataset.drop) ? target : null;
    if (press.over) press.over.classList.add("drop-over");
  };

  const cleanup = () => {
    if (!press) return;
    if (press.ghost) press.ghost.remove();
    if (press.over) press.over.classList.remove("drop-over");
    press.el.classList.remove("dragging");
    document.body.classList.remove("dragging-card");
    press = null;
  };

  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || press) return;
    // A card (a button, or an image of one) that may be dragged.
    const el = event.target instanceof Element ? /** @type {HTMLButtonElement | null} */ (event.target.closest("[data-drag]")) : null;
    if (!el || el.disabled || !root.contains(el)) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, el, payload: el.dataset.drag, ghost: null, over: null };
  });

  window.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (!press.ghost) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < THRESHOLD) return;
      const box = press.el.getBoundingClientRect();
      const ghost = press.el.cloneNode(true);
      ghost.removeAttribute("id");
      ghost.classList.add("drag-ghost");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.width = `${box.width}px`;
      ghost.style.height = `${box.height}px`;
      press.dx = press.x - box.left;
      press.dy = press.y - box.top;
      document.body.append(ghost);
      press.ghost = ghost;
      press.el.classList.add("dragging");
      document.body.classList.add("dragging-card");
    }
    press.ghost.style.transform = `translate(${event.clientX - press.dx}px, ${event.clientY - press.dy}px)`;
    // Near the top or bottom edge the page scrolls, so a far target (the discards above the rack
    // on a phone) can be reached in one drag.
    if (event.clientY < EDGE) window.scrollBy(0, -STEP);
    else if (event.clientY > window.innerHeight - EDGE) window.scrollBy(0, STEP);
    mark(targetAt(event.clientX, event.clientY));
    event.preventDefault();
  }, { passive: false });

  window.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (!press.ghost) {
      // A tap. With a mouse the click that follows does the work; with a finger the page clicks
      // the card itself (a browser may not send the click after a touch that followed a drag),
      // and a click the browser does send right after is not counted twice.
      const { el } = press;
      press = null;
      if (event.pointerType === "touch") {
        tapUntil = performance.now() + TAP_WINDOW_MS;
        tapAt = { x: event.clientX, y: event.clientY };
        clicking = true;
        el.click();
        clicking = false;
      }
      return;
    }
    const target = targetAt(event.clientX, event.clientY);
    const { payload } = press;
    cleanup();
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    // A target is found by its data-drop (targetAt).
    if (target && accepts(payload, target.dataset.drop || "")) drop(payload, target.dataset.drop || "", target);
  });

  window.addEventListener("pointercancel", (event) => {
    if (press && event.pointerId === press.id) cleanup();
  });

  // The click the browser sends after a drag is not a tap; nor is its click after a finger's tap
  // the page has already clicked, whatever is under the finger by then: the page has redrawn
  // after the tap, and a button may now stand where the card was (it must not be pressed).
  root.addEventListener("click", (event) => {
    const sameTap = tapAt && Math.abs(event.clientX - tapAt.x) <= 12 && Math.abs(event.clientY - tapAt.y) <= 12;
    if (!clicking && performance.now() < tapUntil && sameTap) {
      tapUntil = 0;
      event.stopPropagation();
      event.preventDefault();
      return;
    }
    if (swallowClick) {
      swallowClick = false;
      event.stopPropagation();
      event.preventDefault();
    }
  }, true);
}
