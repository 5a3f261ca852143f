// The table: draws a play's piles as SVG cards and turns pointer gestures into intents
// (drop, click-click, double-click, deal). Mouse, pen and touch alike, by pointer events.
// It never decides whether a move is legal: it highlights the targets the server listed.

import { backSVG, cardLabel, faceSVG } from "./cards.js";
import { capacities, grown, layout } from "./layout.js";

const DRAG_START = 6; // pixels a press must travel to become a drag
const DOUBLE = 350; // milliseconds between the clicks of a double-click
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");
const TRANSIENT = ["moving", "dragging"]; // classes a card gets between two drawings of the table

const LAID_OUT = "cardtable.laidOut";

/** How the plays last drawn in this tab were laid out, by play id: {capacity, down}. */
function laidOut() {
  try {
    return JSON.parse(sessionStorage.getItem(LAID_OUT)) || {};
  } catch {
    return {};
  }
}

/** Remember how a play was laid out, with the 7 drawn last before it; storage refused (full, or off in a
 *  private window) only costs the next reload its layout. */
function keepLaidOut(id, how) {
  const kept = Object.entries(laidOut()).filter(([other]) => other !== id).slice(-7);
  try {
    sessionStorage.setItem(LAID_OUT, JSON.stringify(Object.fromEntries([...kept, [id, how]])));
  } catch {
    // nothing kept: a reload lays the play out afresh
  }
}

function caption(pile, short) {
  if (pile.group === "foundation") {
    const down = pile.direction === "down";
    if (short) return `${pile.code} ${down ? "▼K" : "▲A"}`;
    return down ? `${pile.code} ▼ K to A` : `${pile.code} ▲ A to K`;
  }
  if (pile.group === "stock") return short ? `${pile.code} · ${pile.count}` : `${pile.code} · ${pile.count} left`;
  return pile.code;
}

/** The pile as a screen reader names it: "fan t3, 3 cards, top 7 of spades". */
function pileLabel(pile) {
  const cards = pile.count === 1 ? "1 card" : `${pile.count} cards`;
  const empty = pile.takes_when_empty ? "empty" : "empty, takes no card";
  const held = pile.count === 0 ? empty : pile.cards.length ? `${cards}, top ${cardLabel(pile.cards[pile.count - 1])}` : cards;
  const builds = pile.group === "foundation" ? (pile.direction === "down" ? ", builds down from king" : ", builds up from ace") : "";
  return `${pile.group} ${pile.code}, ${held}${builds}`;
}

/** A card has slid to its place: it loses the class of its flight and the transition, which
 *  would otherwise make it trail the pointer when it is dragged next. */
function landed(el, flight) {
  el.classList.remove(flight);
  el.style.transition = "";
}

export class Table {
  /** ``root`` is the element to draw in; ``on`` holds the callbacks: drop(from, to, card) and
   *  smart(from) return promises of whether the server took the move; deal(), select(). */
  constructor(root, on) {
    this.root = root;
    this.on = on;
    this.view = null;
    this.geometry = null;
    this.capacity = null;
    this.held = false; // the table keeps its way while held: the ☰ menu open takes room for a moment only
    this.playId = null;
    this.selected = null;
    this.press = null;
    this.lastClick = { pile: null, at: 0 };
    root.addEventListener("pointerdown", (e) => this.down(e));
    root.addEventListener("pointermove", (e) => this.move(e));
    root.addEventListener("pointerup", (e) => this.up(e));
    root.addEventListener("pointercancel", () => this.cancel());
    root.addEventListener("contextmenu", (e) => e.preventDefault());
    root.addEventListener("keydown", (e) => this.key(e));
    root.addEventListener("focusin", () => this.markFocus());
    root.addEventListener("focusout", () => this.clearMarks("focused"));
  }

  pile(id) {
    return this.view && this.view.piles.find((p) => p.id === id);
  }

  // -- drawing ---------------------------------------------------------------

  /** Draw ``view``; ``motion`` says which moves to animate ("forward", "back" or none). */
  draw(view, motion) {
    const before = motion && !STILL.matches ? this.rects() : null;
    if (view.id !== this.playId) {
      this.playId = view.id;
      // a play drawn before in this tab (a reload) is laid out as it was, not afresh
      const was = laidOut()[view.id];
      this.capacity = grown(was?.capacity || capacities(view.piles), view.piles);
      this.splayedDown = was ? was.down : null;
    } else {
      this.capacity = grown(this.capacity, view.piles);
    }
    this.view = view;
    this.selected = null;
    this.redraw();
    if (before) this.animate(before, view.last, motion === "back");
  }

  redraw() {
    const width = this.root.clientWidth;
    this.place(width);
    // a table taller than the window brings a scrollbar, which narrows the room: lay out again
    if (this.root.clientWidth !== width) this.place(this.root.clientWidth);
  }

  place(width) {
    const view = this.view;
    if (!view) return;
    const top = this.root.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(200, window.innerHeight - top - 16); // the table's bottom margin included
    const g = (this.geometry = layout(view.piles, this.capacity, width, room, this.splayedDown, this.held));
    this.splayedDown = g.down;
    keepLaidOut(view.id, { capacity: this.capacity, down: g.down });
    const items = [];
    for (const pile of view.piles) {
      const box = g.boxes.get(pile.id);
      const mark = pile.count === 0 && pile.base ? `<span class="base">${pile.base}${pile.direction === "down" ? "▼" : "▲"}</span>` : "";
      const label = pileLabel(pile);
      items.push(
        {
          key: `slot|${pile.id}|${mark}`,
          cls: `slot ${pile.group}${pile.count ? "" : pile.takes_when_empty ? " empty" : " closed"}`,
          data: { pile: pile.id },
          style: `left:${box.x}px;top:${box.y}px;width:${g.cw}px;height:${g.ch}px`,
          label,
          role: "button", // a pile is played from the keyboard as by clicks: Enter picks, Enter places
          inner: mark,
        },
        {
          key: `caption|${pile.id}|${caption(pile, g.cw < 80)}`,
          cls: "caption",
          hidden: true, // the pile's own label says it
          style: `left:${box.x}px;top:${box.captionY}px;width:${Math.max(box.w, g.cw)}px;font-size:${Math.round(g.caption * 0.78)}px`,
          text: caption(pile, g.cw < 80),
        },
        ...this.cards(pile, box, g),
      );
    }
    this.root.style.height = `${Math.ceil(g.height)}px`;
    this.root.style.setProperty("--cw", `${g.cw}px`);
    const focused = this.root.contains(document.activeElement) && document.activeElement.dataset.pile;
    this.reconcile(items);
    if (focused && document.activeElement === document.body) this.slot(focused)?.focus(); // its slot was made anew
    this.oneTabStop();
    this.markFocus();
    Object.assign(this.root.dataset, { moves: view.moves, status: view.status, game: view.game, deal: view.deal ?? "" });
  }

  /** Bring the table's elements in line with ``items``, keeping those whose key is unchanged:
   *  a move then touches a few cards instead of rebuilding every SVG. A card still flying
   *  to its place (or being dragged) stays so if its place is unchanged: a redraw in the
   *  middle of the flight must not make it catch the clicks meant for the piles under it. */
  reconcile(items) {
    const old = this.elements || new Map();
    const now = new Map();
    const keys = new Set(items.map((item) => item.key));
    for (const [key, el] of old) if (!keys.has(key)) el.remove();
    let prev = null; // the elements follow the items' order, which a screen reader and the arrow keys go by
    for (const item of items) {
      let el = old.get(item.key);
      if (el) {
        const stays = el.placed === item.style ? TRANSIENT.filter((name) => el.classList.contains(name)) : [];
        const cls = [item.cls, ...stays].join(" ");
        if (el.className !== cls) el.className = cls;
        if (el.placed !== item.style) el.style.cssText = item.style;
        if (item.label && el.getAttribute("aria-label") !== item.label) el.setAttribute("aria-label", item.label);
      } else {
        el = document.createElement("div");
        el.className = item.cls;
        el.style.cssText = item.style;
        Object.assign(el.dataset, item.data || {});
        if (item.label) {
          el.setAttribute("role", item.role || "img");
          el.setAttribute("aria-label", item.label);
        }
        if (item.role === "button") el.tabIndex = -1; // the table is one stop of Tab (see oneTabStop)
        if (item.hidden) el.setAttribute("aria-hidden", "true");
        if (item.text !== undefined) el.textContent = item.text;
        else el.innerHTML = item.inner;
      }
      const at = prev ? prev.nextSibling : this.root.firstChild;
      if (el !== at) this.root.insertBefore(el, at);
      prev = el;
      el.placed = item.style;
      now.set(item.key, el);
    }
    this.elements = now;
  }

  cards(pile, box, g) {
    const size = `width:${g.cw}px;height:${g.ch}px`;
    if (pile.group === "stock") {
      if (!pile.count) return [];
      const under = { key: "stock-under", cls: "card back under", style: `left:${box.x + 3}px;top:${box.y + 3}px;${size}`, inner: backSVG };
      const top = {
        key: `stock|${pile.id}|${pile.count}`,
        cls: "card back top",
        data: { pile: pile.id },
        style: `left:${box.x}px;top:${box.y}px;${size};z-index:2`,
        label: `stock, ${pile.count} cards face down`,
        inner: `${backSVG}<span class="count">${pile.count}</span>`,
      };
      return pile.count > 1 ? [under, top] : [top];
    }
    let first = 0;
    if (pile.group === "foundation") first = Math.max(0, pile.count - 2);
    if (pile.group === "waste") first = Math.max(0, pile.count - 3);
    const out = [];
    for (let i = first; i < pile.count; i++) {
      const card = pile.cards[i];
      const x = box.x + (i - first) * box.dx;
      const y = box.y + (i - first) * box.dy;
      out.push({
        key: `card|${pile.id}|${i}|${card}`,
        cls: i === pile.count - 1 ? "card top" : "card",
        data: { pile: pile.id, i, card, splay: box.dy ? "down" : "side" },
        style: `left:${x}px;top:${y}px;${size};z-index:${i + 1}`,
        label: cardLabel(card),
        inner: faceSVG(card),
      });
    }
    return out;
  }

  rects() {
    const out = new Map();
    for (const el of this.root.querySelectorAll(".card[data-card]")) {
      out.set(`${el.dataset.pile}|${el.dataset.card}`, el.getBoundingClientRect());
    }
    return out;
  }

  /** Slide each moved card from where it was to where it is now (FLIP). */
  animate(before, moves, back) {
    for (const move of moves || []) {
      if (move.kind !== "card") continue;
      const [from, to] = back ? [move.to, move.from] : [move.from, move.to];
      const old = before.get(`${from}|${move.card}`);
      const el = this.topCard(to, move.card);
      if (!old || !el) continue;
      const now = el.getBoundingClientRect();
      el.style.transition = "none";
      el.style.transform = `translate(${old.left - now.left}px, ${old.top - now.top}px)`;
      el.classList.add("moving"); // above the rest, and not in the way of the next click
      el.getBoundingClientRect(); // commit the start position before transitioning
      el.style.transition = "transform 160ms ease-out";
      el.style.transform = "";
      el.addEventListener("transitionend", () => landed(el, "moving"), { once: true });
    }
  }

  /** The element of a pile's top card, or of its topmost ``card``. */
  topCard(pileId, card) {
    const els = [...this.root.querySelectorAll(`.card[data-pile="${CSS.escape(pileId)}"]`)];
    let best = null;
    for (const el of els) {
      if ((!card || el.dataset.card === card) && (!best || Number(el.dataset.i) > Number(best.dataset.i))) best = el;
    }
    return best;
  }

  slot(pileId) {
    return this.root.querySelector(`.slot[data-pile="${CSS.escape(pileId)}"]`);
  }

  /** Mark a pile's top card (or its empty place) with a class. */
  mark(pileId, name) {
    const el = this.topCard(pileId) || this.slot(pileId);
    if (el) el.classList.add(name);
  }

  clearMarks(...names) {
    for (const name of names) for (const el of this.root.querySelectorAll(`.${name}`)) el.classList.remove(name);
  }

  showTargets(from) {
    this.clearMarks("target");
    for (const m of this.view.legal) if (m.kind === "card" && m.from === from) this.mark(m.to, "target");
  }

  select(pileId) {
    this.unselect();
    this.selected = pileId;
    this.mark(pileId, "selected");
    this.slot(pileId)?.setAttribute("aria-pressed", "true");
    this.showTargets(pileId);
  }

  unselect() {
    if (this.selected) this.slot(this.selected)?.removeAttribute("aria-pressed");
    this.selected = null;
    this.clearMarks("selected", "target");
  }

  /** The player puts a picked card down (Escape, the felt, the card itself again): told, as a pick is. */
  putDown() {
    if (!this.selected) return;
    const from = this.selected;
    this.unselect();
    this.on.putDown(from);
  }

  /** Show the solver's move: the card to play and where it goes; a guess, not proved to win, dashed. */
  hint(move, guess = false) {
    this.clearMarks("hint", "hint-target", "guess");
    if (move.kind === "card") {
      this.mark(move.from, "hint");
      this.mark(move.to, "hint-target");
    } else if (move.kind === "deal") {
      this.mark("stock/0", "hint");
    }
    if (guess) for (const el of this.root.querySelectorAll(".hint, .hint-target")) el.classList.add("guess");
  }

  // -- the keyboard ----------------------------------------------------------

  /** Enter or Space on a pile is a click on it, and on the pile just picked, a double-click
   *  however slow (a keyboard player need not hurry); left and right go to the pile before or after,
   *  up and down to the row above or below, Home and End to the first and last pile. */
  key(e) {
    const pileId = e.target.classList.contains("slot") ? e.target.dataset.pile : null;
    if (!pileId || e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (this.selected === pileId) this.lastClick = { pile: pileId, at: performance.now() };
      this.click(pileId, performance.now());
    } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"].includes(e.key)) {
      e.preventDefault();
      const slots = [...this.root.querySelectorAll(".slot")];
      const at = slots.indexOf(e.target);
      const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
      const next =
        e.key === "Home" ? slots[0]
        : e.key === "End" ? slots[slots.length - 1]
        : (e.key === "ArrowDown" || e.key === "ArrowUp") && this.below(pileId, step, slots)
          || slots[(at + step + slots.length) % slots.length];
      e.target.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  }

  /** The slot of the pile nearest below (``step`` 1) or above (-1) ``pileId`` on the table, the
   *  nearest across of those in the nearest row; none at the edge, where the arrow goes on in order. */
  below(pileId, step, slots) {
    const boxes = this.geometry.boxes;
    const from = boxes.get(pileId);
    let best = null;
    let bestDistance = null;
    for (const slot of slots) {
      const box = boxes.get(slot.dataset.pile);
      const down = (box.y - from.y) * step;
      if (down <= this.geometry.ch / 4) continue; // the same row (a pile splayed down is taller), or the other way
      const distance = [down, Math.abs(box.x - from.x)];
      if (!best || distance[0] < bestDistance[0] - 1 || (Math.abs(distance[0] - bestDistance[0]) <= 1 && distance[1] < bestDistance[1])) {
        best = slot;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Make the table one stop of Tab, at the pile last gone to (the first at the start): a
   *  keyboard player crosses the table with one key, not one per pile, and goes within it by arrows. */
  oneTabStop() {
    const slots = [...this.root.querySelectorAll(".slot")];
    const stop = slots.find((slot) => slot.tabIndex === 0) || slots[0];
    for (const slot of slots) slot.tabIndex = slot === stop ? 0 : -1;
  }

  /** Ring the pile that has the keyboard's focus: its slot lies under its cards, which hide its own ring. */
  markFocus() {
    this.clearMarks("focused");
    const el = document.activeElement;
    if (el && el.classList.contains("slot") && this.root.contains(el) && el.matches(":focus-visible")) {
      this.mark(el.dataset.pile, "focused");
    }
  }

  // -- gestures --------------------------------------------------------------

  pileAt(target) {
    const el = target.closest && target.closest("[data-pile]");
    return el ? el.dataset.pile : null;
  }

  down(e) {
    if (e.button !== 0 || !this.view) return;
    const pileId = this.pileAt(e.target);
    if (!pileId) {
      this.putDown(); // a tap on the felt puts a picked card down: a phone has no Escape
      return;
    }
    const pile = this.pile(pileId);
    const el = pile && pile.group !== "stock" ? this.topCard(pileId) : null;
    this.press = { pileId, el, x: e.clientX, y: e.clientY, dragging: false, id: e.pointerId };
    if (el) e.preventDefault();
  }

  move(e) {
    const p = this.press;
    if (!p || p.id !== e.pointerId || !p.el) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (!p.dragging) {
      if (Math.hypot(dx, dy) < DRAG_START) return;
      p.dragging = true;
      this.root.setPointerCapture(e.pointerId);
      this.unselect();
      p.el.classList.add("dragging");
      // a card still sliding back from a refused drop would trail the pointer
      p.el.style.transition = "none";
      this.showTargets(p.pileId);
    }
    p.el.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  async up(e) {
    const p = this.press;
    this.press = null;
    if (!p || p.id !== e.pointerId) return;
    const started = performance.now();
    if (!p.dragging) {
      this.click(p.pileId, started);
      return;
    }
    this.clearMarks("target");
    const to = this.dropTarget(p.el, p.pileId, e.clientX - p.x, e.clientY - p.y);
    const card = p.el.dataset.card;
    const taken = to ? await this.on.drop(p.pileId, to, card, started) : false;
    if (!taken) this.sendBack(p.el);
    else if (p.el.isConnected) {
      // The drawing kept the element for the card now in its place, alike in name and place: the
      // stock's refill with the other deck's copy (Acey and Kingsley). It is that card, not the drag.
      landed(p.el, "dragging");
      p.el.style.transform = "";
    }
  }

  cancel() {
    if (this.press && this.press.dragging) this.sendBack(this.press.el);
    this.press = null;
    this.clearMarks("target");
  }

  sendBack(el) {
    if (!el.isConnected) return;
    el.style.transition = "transform 180ms ease-out";
    el.style.transform = "";
    el.addEventListener("transitionend", () => landed(el, "dragging"), { once: true });
  }

  /** The pile the dragged card overlaps most, other than its own, with the card where the
   *  pointer put it: its place on the table moved by ``dx``, ``dy``. Its drawn rectangle
   *  could lag behind the pointer. */
  dropTarget(el, from, dx, dy) {
    const r = { left: el.offsetLeft + dx, top: el.offsetTop + dy };
    r.right = r.left + el.offsetWidth;
    r.bottom = r.top + el.offsetHeight;
    let best = null;
    let bestArea = 0;
    for (const [id, box] of this.geometry.boxes) {
      if (id === from) continue;
      const w = Math.max(0, Math.min(r.right, box.x + box.w) - Math.max(r.left, box.x));
      const h = Math.max(0, Math.min(r.bottom, box.y + box.h) - Math.max(r.top, box.y));
      if (w * h > bestArea) {
        best = id;
        bestArea = w * h;
      }
    }
    return best;
  }

  /** A click: deal from the stock; pick a card, then where it goes; a quick second click
   *  on the card just picked sends it home (or to its only place). */
  click(pileId, started) {
    const pile = this.pile(pileId);
    const now = performance.now();
    const double = this.lastClick.pile === pileId && now - this.lastClick.at < DOUBLE;
    this.lastClick = { pile: null, at: 0 };
    if (pile.group === "stock") {
      this.unselect();
      this.on.deal(started);
    } else if (double) {
      this.unselect();
      if (pile.count) this.on.smart(pileId, started);
    } else if (this.selected === pileId) {
      this.putDown();
    } else if (this.selected) {
      const from = this.selected;
      this.unselect();
      const source = this.pile(from);
      this.on.drop(from, pileId, source.cards[source.cards.length - 1], started);
    } else if (pile.count) {
      this.select(pileId);
      this.lastClick = { pile: pileId, at: now };
      this.on.select(pileId);
    }
  }
}
