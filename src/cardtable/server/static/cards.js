// Cards drawn as SVG: a face from its two-character name ("TD"), and the back.
// Suits are symbols defined once in index.html; each card is built once and reused.

const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const cache = new Map();

export const isRed = (card) => card[1] === "D" || card[1] === "H";
export const rankText = (card) => RANKS[card[0]] || card[0];
export const suitSymbol = (card) => ({ C: "♣", D: "♦", H: "♥", S: "♠" })[card[1]];
export const cardLabel = (card) => `${RANK_NAMES[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`;
export const cardText = (card) => rankText(card) + suitSymbol(card);

function use(suit, x, y, size) {
  return `<use href="#s-${suit}" x="${x}" y="${y}" width="${size}" height="${size}"/>`;
}

/** A corner's rank and suit, and a second suit across the top: a fan splayed down shows only
 *  its cards' top strips. */
function index(card) {
  const rank = rankText(card);
  const fit = rank.length > 1 ? ' textLength="22" lengthAdjust="spacingAndGlyphs"' : "";
  return `<text x="14" y="26" class="rank"${fit}>${rank}</text>${use(card[1], 5, 30, 18)}${use(card[1], 79, 7, 16)}`;
}

function middle(card) {
  const suit = card[1];
  if ("JQK".includes(card[0])) {
    // the frame starts below the strip that a fan splayed down shows of each card
    return (
      `<rect x="28" y="33" width="44" height="74" rx="5" class="court"/>` +
      `<text x="50" y="84" class="court-rank">${card[0]}</text>` +
      use(suit, 42, 88, 16) + use(suit, 42, 36, 16)
    );
  }
  const size = card[0] === "A" ? 56 : 44;
  return use(suit, 50 - size / 2, 70 - size / 2, size);
}

/** The SVG markup of a face-up card. */
export function faceSVG(card) {
  let svg = cache.get(card);
  if (svg === undefined) {
    svg =
      `<svg viewBox="0 0 100 140" class="face ${isRed(card) ? "red" : "black"}" aria-hidden="true">` +
      `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="7" class="paper"/>` +
      index(card) + middle(card) +
      `<g transform="rotate(180 50 70)">${index(card)}</g></svg>`;
    cache.set(card, svg);
  }
  return svg;
}

/** The SVG markup of a face-down card. */
export const backSVG =
  `<svg viewBox="0 0 100 140" class="back" aria-hidden="true">` +
  `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="7" class="paper"/>` +
  `<rect x="6" y="6" width="88" height="128" rx="4" fill="url(#lattice)"/>` +
  `<rect x="6" y="6" width="88" height="128" rx="4" class="back-edge"/></svg>`;
