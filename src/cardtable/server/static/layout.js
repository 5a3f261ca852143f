// Where each pile goes on the table: sections stacked top to bottom, their piles packed
// into centred lines, and the largest card size at which everything fits the window.
// Presentation only: the rules stay on the server.

const SECTIONS = [["foundation"], ["reserve"], ["tableau", "stock", "waste"], ["fan"]];
const SPREAD = { reserve: 0.26, waste: 0.3, fan: 0.3, tableau: 0.3 }; // card widths between splayed cards, either way
const MIN_SPREAD = 0.25;
const RATIO = 1.4; // card height / width
const WASTE_SHOWN = 3;
// Groups that may be splayed down instead of sideways, which suits a tall narrow screen; the
// waste stays sideways beside its stock.
const DOWNWARD = ["reserve", "tableau", "fan"];
const TURN = 1.15; // how much wider the other way's cards must be for a table drawn one way to turn

/** How many cards long each pile's place is, set when a play is first drawn so the table does not
 *  jump about as fans grow and shrink: room for a pile's cards or for as many as its group's middle
 *  pile holds, whichever is more (a fan, one card more). Not for as many as the group's longest:
 *  splayed down, one long fan would make every line tall (a page reloaded in the middle of a game). */
export function capacities(piles) {
  const out = {};
  for (const pile of piles) {
    const group = pile.group;
    if (group === "foundation" || group === "stock") out[pile.id] = 1;
    else if (group === "waste") out[pile.id] = WASTE_SHOWN;
    else out[pile.id] = Math.max(1, middle(piles, group), pile.count) + (group === "fan" ? 1 : 0);
  }
  return grown(out, piles);
}

/** How many cards the middle pile of a group holds, in order of length (its median). */
function middle(piles, group) {
  const counts = piles.filter((p) => p.group === group).map((p) => p.count);
  return counts.sort((a, b) => a - b)[Math.floor(counts.length / 2)];
}

/** The capacities, never smaller, with room for every pile: a pile that outgrows its place even with
 *  the spread squeezed lengthens it to twice the cards it holds, so the table reflows once or twice
 *  as a fan grows long, not at every card. Kept by pile, not by group: splayed down, a long fan
 *  makes its own line tall, not every line of its group. */
export function grown(capacity, piles) {
  const out = { ...capacity };
  for (const pile of piles) {
    if (splayed(pile) && pile.count > squeezed(out[pile.id] || 1, SPREAD[pile.group])) {
      out[pile.id] = needed(2 * pile.count, SPREAD[pile.group]);
    }
  }
  return out;
}

/** The capacities cut to at most ``most`` cards, but never below the room a pile needs for the cards
 *  it holds with the spread squeezed: less headroom, for a table that does not fit otherwise. */
function trimmed(capacity, piles, most) {
  const out = { ...capacity };
  for (const pile of piles) {
    if (splayed(pile)) out[pile.id] = Math.min(out[pile.id] || 1, Math.max(most, needed(pile.count, SPREAD[pile.group])));
  }
  return out;
}

/** Whether a pile's place grows with its cards (the waste shows its top few at most). */
function splayed(pile) {
  return Boolean(SPREAD[pile.group]) && pile.group !== "waste";
}

/** How many cards a place ``base`` cards long shows with the spread squeezed to the least. */
function squeezed(base, spread) {
  return 1 + ((base - 1) * spread) / MIN_SPREAD;
}

/** The shortest place, in cards, that shows ``count`` cards with the spread squeezed to the least. */
function needed(count, spread) {
  return Math.ceil(1 + ((count - 1) * MIN_SPREAD) / spread - 1e-9); // 1e-9: 0.25 / 0.3 is not exact
}

function metrics(cw) {
  return { cw, ch: cw * RATIO, gap: Math.max(6, cw * 0.14), caption: Math.max(13, cw * 0.17) };
}

/** The size of a pile's place: as wide as its capacity splayed sideways, or one card wide and as
 *  tall as its capacity splayed down when its group is in ``down``. */
function placeSize(pile, capacity, m, down) {
  const splay = m.cw * ((capacity[pile.id] || 1) - 1) * (SPREAD[pile.group] || 0); // grown() made room for every pile
  return down.includes(pile.group) ? { w: m.cw, h: m.ch + splay } : { w: m.cw + splay, h: m.ch };
}

/** Lines of piles for one card width: [{items: [{pile, w, h}], used, tall, y}], the total height,
 *  and whether some line is wider than ``width``. */
function pack(piles, capacity, cw, width, down) {
  const m = metrics(cw);
  const lines = [];
  let y = 0;
  for (const groups of SECTIONS) {
    const members = piles.filter((p) => groups.includes(p.group));
    if (!members.length) continue;
    const sizes = new Map(members.map((p) => [p.id, placeSize(p, capacity, m, down)]));
    // piles of one group share a slot width, so a group reads as a grid
    const widest = {};
    for (const p of members) widest[p.group] = Math.max(widest[p.group] || 0, sizes.get(p.id).w);
    // one group: balance the lines (12 fans as 4 × 3, not 5 + 5 + 2; 13 as 4 + 3 + 3 + 3, not 4 + 4 + 4 + 1)
    let perLine = () => Infinity;
    if (Object.keys(widest).length === 1) {
      const n = members.length;
      const rows = Math.ceil(n / Math.max(1, Math.floor((width + m.gap) / (widest[members[0].group] + m.gap))));
      perLine = (row) => Math.floor(n / rows) + (row < n % rows);
    }
    const first = lines.length;
    let line = { items: [], used: 0, tall: 0, y };
    for (const p of members) {
      const w = widest[p.group];
      if (line.items.length && (line.used + m.gap + w > width || line.items.length >= perLine(lines.length - first))) {
        lines.push(line);
        y += line.tall + m.caption + m.gap;
        line = { items: [], used: 0, tall: 0, y };
      }
      const h = sizes.get(p.id).h;
      line.used += (line.items.length ? m.gap : 0) + w;
      line.tall = Math.max(line.tall, h); // a line is as tall as its longest pile splayed down
      line.items.push({ pile: p, w, h });
    }
    lines.push(line);
    y += line.tall + m.caption + m.gap * 1.6;
  }
  const tooWide = lines.some((l) => l.used > width);
  return { lines, height: y, tooWide };
}

/** The largest card width, to the pixel, at which the table fits ``width`` × ``height`` with the
 *  groups in ``down`` splayed down; 0 if it does not fit even with the smallest cards. */
function largest(piles, capacity, width, height, down) {
  let lo = smallest(width, height);
  if (!fits(piles, capacity, lo, width, height, down)) return 0;
  let hi = Math.floor(Math.min(width < 600 ? 110 : 130, width / 2.2)) + 1; // past the largest card
  while (hi - lo > 1) {
    // lo fits, hi does not: whole pixels, so that 0.5 px short of a pixel is not a pixel lost
    const mid = Math.floor((lo + hi) / 2);
    if (fits(piles, capacity, mid, width, height, down)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Whether the table fits ``width`` × ``height`` with cards ``cw`` wide. */
function fits(piles, capacity, cw, width, height, down) {
  const trial = pack(piles, capacity, cw, width, down);
  return trial.height <= height && !trial.tooWide;
}

/** The smallest card width for a table of ``width`` × ``height``: on a phone, held upright or on its
 *  side (a table under 400 pixels tall), the same small cards either way; elsewhere larger ones. */
function smallest(width, height) {
  return width < 600 || height < 400 ? 34 : 44;
}

/** The offset from one card of a pile to the next: the group's spread, squeezed to fit the place. */
function splay(pile, w, h, m, down) {
  const spread = SPREAD[pile.group];
  if (!spread) return { dx: 0, dy: 0 };
  const shown = pile.group === "waste" ? Math.min(WASTE_SHOWN, pile.count) : pile.count;
  const downwards = down.includes(pile.group);
  const room = downwards ? h - m.ch : w - m.cw;
  const step = Math.min(m.cw * spread, shown > 1 ? room / (shown - 1) : 0);
  return downwards ? { dx: 0, dy: step } : { dx: step, dy: 0 };
}

/** The largest card width at which the table fits with the groups in ``down`` splayed down, and the
 *  capacities it is laid out with: those given, or if they do not fit even the smallest cards, cut
 *  back to the longest places that do, with the smallest cards (the same as a fan grows until it
 *  outgrows them, so the table still does not reflow at every card). A width of 0 and the
 *  capacities given if nothing fits: a table that scrolls anyway keeps still as fans grow. */
function fitted(piles, capacity, width, height, down) {
  const cw = largest(piles, capacity, width, height, down);
  if (cw) return { cw, capacity };
  const least = smallest(width, height);
  const longest = Math.max(...piles.map((p) => capacity[p.id] || 1));
  for (let most = longest - 1; most >= 1; most--) {
    const cut = trimmed(capacity, piles, most);
    if (fits(piles, cut, least, width, height, down)) return { cw: least, capacity: cut };
  }
  return { cw: 0, capacity };
}

/** Where a pile's cards start and its caption goes, in its line: in a line of piles splayed down,
 *  captions go above the piles, where they stay as the piles grow and shrink (below, one would drift
 *  down the line's room, as far as the pile of the next line), and the line's cards start level; in
 *  the others, below their one card's height. */
function placed(line, h, m, down) {
  if (line.items.some((item) => down.includes(item.pile.group))) return { y: line.y + m.caption, captionY: line.y };
  return { y: line.y, captionY: line.y + h + 2 };
}

/** The geometry of the whole table in a box of ``width`` × ``height`` pixels: piles splayed sideways,
 *  or down where that gives larger cards (a phone held upright); with the smallest cards, and scrolling
 *  down, if neither fits. The way the table was drawn before (``wasDown``, null for a first drawing)
 *  stays unless the other gives cards a good deal wider (TURN) or it no longer fits: as a fan outgrows
 *  its place the two ways come close, and the whole table would turn back and forth within a game.
 *  A table ``held`` (drawn again for a passing change of room) keeps its way whatever the other gives. */
export function layout(piles, capacity, width, height, wasDown = null, held = false) {
  const sideways = fitted(piles, capacity, width, height, []);
  const downwards = fitted(piles, capacity, width, height, DOWNWARD);
  const [now, other] = wasDown ? [downwards, sideways] : [sideways, downwards];
  const turn = wasDown === null ? other.cw > now.cw : !held && other.cw >= TURN * now.cw && other.cw > now.cw;
  const down = Boolean(wasDown) !== turn ? DOWNWARD : [];
  const best = down.length ? downwards : sideways;
  const m = metrics(best.cw || smallest(width, height));
  const { lines, height: used } = pack(piles, best.capacity, m.cw, width, down);
  const boxes = new Map();
  for (const line of lines) {
    let x = Math.max(0, (width - line.used) / 2);
    for (const { pile, w, h } of line.items) {
      boxes.set(pile.id, { x, w, h, ...placed(line, h, m, down), ...splay(pile, w, h, m, down) });
      x += w + m.gap;
    }
  }
  return { ...m, height: used, boxes, down: down.length > 0 };
}
