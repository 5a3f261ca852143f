// Where each pile goes on the table: sections stacked top to bottom, their piles packed
// into centred lines, and the largest card size at which everything fits the window.
// Presentation only: the rules stay on the server.

const SECTIONS = [["foundation"], ["reserve"], ["tableau", "stock", "waste"], ["fan"]];
const SPREAD = { reserve: 0.26, waste: 0.3, fan: 0.3, tableau: 0.3 }; // card widths between splayed cards
const MIN_SPREAD = 0.25;
const RATIO = 1.4; // card height / width
const WASTE_SHOWN = 3;


/** How many cards wide each group's slots are, set when a play is first drawn so the
 *  table does not jump about as fans grow and shrink. */
export function capacities(piles) {
  const most = {};
  for (const pile of piles) most[pile.group] = Math.max(most[pile.group] || 1, pile.count);
  const out = {};
  for (const group of Object.keys(most)) {
    if (group === "foundation" || group === "stock") out[group] = 1;
    else if (group === "waste") out[group] = WASTE_SHOWN;
    else out[group] = most[group] + (group === "fan" ? 1 : 0);
  }
  return grown(out, piles);
}

/** The capacities, never smaller, with room for every pile: a pile that outgrows its group's
 *  slots even with the spread squeezed widens them to twice the cards it holds, so the table
 *  reflows once or twice as a fan grows long, not at every card. */
export function grown(capacity, piles) {
  const out = { ...capacity };
  for (const pile of piles) {
    const spread = SPREAD[pile.group];
    if (!spread || pile.group === "waste" || pile.count <= squeezed(out[pile.group] || 1, spread)) continue;
    out[pile.group] = Math.ceil(1 + (2 * pile.count - 1) * (MIN_SPREAD / spread));
  }
  return out;
}

/** How many cards a slot ``base`` cards wide shows with the spread squeezed to the least. */
function squeezed(base, spread) {
  return 1 + ((base - 1) * spread) / MIN_SPREAD;
}

function metrics(cw) {
  return { cw, ch: cw * RATIO, gap: Math.max(6, cw * 0.14), caption: Math.max(13, cw * 0.17) };
}

function slotWidth(pile, capacity, cw) {
  const spread = SPREAD[pile.group] || 0;
  return cw * (1 + ((capacity[pile.group] || 1) - 1) * spread); // grown() made room for every pile
}

/** Lines of piles for one card width: [{piles, widths, y}], and the total height. */
function pack(piles, capacity, cw, width) {
  const m = metrics(cw);
  const lines = [];
  let y = 0;
  for (const groups of SECTIONS) {
    const members = piles.filter((p) => groups.includes(p.group));
    if (!members.length) continue;
    // piles of one group share a slot width, so a group reads as a grid
    const widest = {};
    for (const p of members) widest[p.group] = Math.max(widest[p.group] || 0, slotWidth(p, capacity, cw));
    // one group: balance the lines (12 fans as 4 × 3, not 5 + 5 + 2)
    let perLine = Infinity;
    if (Object.keys(widest).length === 1) {
      const w = widest[members[0].group];
      const most = Math.max(1, Math.floor((width + m.gap) / (w + m.gap)));
      perLine = Math.ceil(members.length / Math.ceil(members.length / most));
    }
    let line = { piles: [], widths: [], used: 0, y };
    for (const p of members) {
      const w = widest[p.group];
      if (line.piles.length && (line.used + m.gap + w > width || line.piles.length >= perLine)) {
        lines.push(line);
        y += m.ch + m.caption + m.gap;
        line = { piles: [], widths: [], used: 0, y };
      }
      line.used += (line.piles.length ? m.gap : 0) + w;
      line.piles.push(p);
      line.widths.push(w);
    }
    lines.push(line);
    y += m.ch + m.caption + m.gap * 1.6;
  }
  const tooWide = lines.some((l) => l.used > width);
  return { lines, height: y, tooWide };
}

/** The geometry of the whole table in a box of ``width`` × ``height`` pixels. */
export function layout(piles, capacity, width, height) {
  const small = width < 600;
  let lo = small ? 34 : 44;
  let hi = Math.min(small ? 110 : 130, width / 2.2);
  if (pack(piles, capacity, lo, width).height > height) hi = lo; // cannot fit: scroll down
  for (let i = 0; i < 18 && hi - lo > 0.5; i++) {
    const mid = (lo + hi) / 2;
    const trial = pack(piles, capacity, mid, width);
    if (trial.height <= height && !trial.tooWide) lo = mid;
    else hi = mid;
  }
  const cw = Math.floor(lo);
  const m = metrics(cw);
  const { lines, height: used } = pack(piles, capacity, cw, width);
  const boxes = new Map();
  for (const line of lines) {
    let x = Math.max(0, (width - line.used) / 2);
    line.piles.forEach((pile, i) => {
      const w = line.widths[i];
      const shown = pile.group === "waste" ? Math.min(WASTE_SHOWN, pile.count) : pile.count;
      const spread = SPREAD[pile.group] ? Math.min(cw * SPREAD[pile.group], shown > 1 ? (w - cw) / (shown - 1) : 0) : 0;
      boxes.set(pile.id, { x, y: line.y, w, h: m.ch, step: spread });
      x += w + m.gap;
    });
  }
  return { ...m, height: used, boxes };
}
