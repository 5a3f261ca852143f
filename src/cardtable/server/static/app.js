// The page: the toolbar, the status line, dialogs and keys around the table.
// Every action is a call to the JSON API; the answer is the new table, drawn whole.

import { ApiError, get, post } from "./api.js";
import { cardLabel, cardText } from "./cards.js";
import { Table } from "./table.js";

const $ = (id) => document.getElementById(id);
const IDLE_CAP = 300; // seconds: as the server counts play time
const DEFAULT_GAME = "alexander-the-great";
const LEAVE = "Leave this game for a new one? It will count as abandoned, a loss, in the statistics.";
const MAX_DEAL = 2147483647;
const DEAL_RULE = `a deal number is a whole number from 1 to ${MAX_DEAL}`;
// storage a browser refuses (off, or full, in a private window) only costs the settings' memory
const stored = (key, fallback) => {
  try {
    return localStorage.getItem(`cardtable.${key}`) ?? fallback;
  } catch {
    return fallback;
  }
};
const store = (key, value) => {
  try {
    localStorage.setItem(`cardtable.${key}`, value);
  } catch {
    // kept for this page only
  }
};

/** The ids with options played in this browser, and their names: {} if none, or if the entry was spoilt. */
function storedVariants() {
  try {
    const variants = JSON.parse(stored("variants", "{}"));
    return variants && typeof variants === "object" ? variants : {};
  } catch {
    return {};
  }
}

const page = {
  view: null,
  games: [],
  received: 0, // performance.now() when the view arrived, for the clock
  show: null, // the running "show me": {stop: bool}
  busy: 0,
  asking: null, // what the page said as it asked the solver, until the answer comes
  timings: [], // milliseconds from a click or drop to the redrawn table
};
window.cardtable = page;

const table = new Table($("table"), {
  drop: (from, to, card, started) => playMove({ move: { from, to, card } }, started),
  smart: sendHome,
  deal: (started) => playMove({ move: { deal: "stock" } }, started),
  select: (pileId) => {
    table.clearMarks("hint", "hint-target", "guess");
    $("said").textContent = pickWords(pileId);
  },
  putDown: (pileId) => ($("said").textContent = `put down: ${page.view.piles.find((p) => p.id === pileId).code}`),
});
page.table = table;

// -- messages --------------------------------------------------------------

let toastTimer = 0;
function toast(text, seconds = 3.5) {
  const el = $("toast");
  el.hidden = false; // shown before its text changes: a screen reader reads a live region only then
  el.textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), seconds * 1000);
}

function clock(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
}

function playSeconds() {
  const v = page.view;
  if (!v || v.status !== "playing") return v ? v.seconds : 0;
  return v.seconds + Math.min(IDLE_CAP, (performance.now() - page.received) / 1000);
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** How a lost game ended: no move at all, or stuck, which the rules count as lost though moves are
 *  still legal (``view.stuck`` says what is left, in the game's words). */
function lostWords(view) {
  return view.stuck ? { title: "Stuck", fact: "stuck" } : { title: "No moves left", fact: "no moves left" };
}

function showFacts() {
  const v = page.view;
  if (!v) return;
  const facts = [plural(v.moves, "move"), clock(playSeconds())];
  const stock = v.piles.find((p) => p.group === "stock");
  if (stock) facts.push(`stock ${stock.count}`);
  if (v.assisted) facts.push("solver helped");
  if (v.status === "won") facts.push("won");
  else if (v.status === "lost") facts.push(lostWords(v).fact);
  else if (v.can_redeal && v.legal.every((m) => m.kind === "redeal")) facts.push("no card can move: redeal");
  $("facts").textContent = facts.join(" · ");
}
setInterval(showFacts, 1000);

/** A move in words: "7♣: t3 f1", "a deal from the stock", "the redeal"; ``spoken``, its card in words too
 *  ("7 of clubs: t3 f1"), as a screen reader reads the symbols poorly. */
function moveWords(move, spoken = false) {
  if (move.kind === "card") return `${(spoken ? cardLabel : cardText)(move.card)}: ${move.text}`;
  return move.kind === "deal" ? "a deal from the stock" : "the redeal";
}

/** Say what the latest action did, for a screen reader: the clock beside the moves changes every
 *  second, so the status line is not a live region, and this quiet one speaks instead. */
function say(view, motion, refill) {
  const moves = (view.last || []).map((move) => moveWords(move, true));
  const done = moves.length ? `${doneWords(motion)}: ${moves.join("; ")}` : "";
  const end = view.status === "won" ? "You won!" : view.status === "lost" ? `${lostWords(view).title}.` : "";
  $("said").textContent = [done, refill, end].filter(Boolean).join(". ");
}

/** What the moves of an action were: played, taken back, or (no motion: a deal dealt or restarted) autoplay's. */
function doneWords(motion) {
  return motion === "back" ? "taken back" : motion === "forward" ? "played" : "autoplay sent home";
}

/** What a pick means, for a screen reader, which cannot see the rings: "picked 10 of diamonds from t1: it can go
 *  to t8 or f2", or that it cannot move now; and what picking it again does, as sendHome and the server's
 *  move of a pile alone do: home if one foundation takes it, else to its one place; a card home stays. */
function pickWords(pileId) {
  const pile = page.view.piles.find((p) => p.id === pileId);
  const moves = page.view.legal.filter((m) => m.kind === "card" && m.from === pileId);
  const codes = (some) => [...new Set(some.map((m) => m.text.split(" ")[1]))];
  const places = codes(moves);
  const homes = codes(moves.filter((m) => m.to.startsWith("foundation/")));
  const card = pile.cards.length ? cardLabel(pile.cards[pile.cards.length - 1]) : "the top card";
  const where = places.length ? `it can go to ${places.join(" or ")}` : "it cannot move now";
  const again =
    pile.group === "foundation" ? "it stays home"
    : homes.length === 1 ? `it goes home to ${homes[0]}`
    : places.length === 1 ? `it goes to ${places[0]}`
    : "";
  return `picked ${card} from ${pile.code}: ${where}; ${again ? `picked again, ${again}` : "then pick where it goes"}`;
}

/** What the stock put, on its own, into the piles the latest moves emptied (Acey and Kingsley), as the
 *  server tells it: "the stock fills t1 with 6♥", or "" (nothing, or moves taken back). */
function refillWords(previous, view, motion) {
  const refills = view.refills || [];
  if (motion !== "forward" || !previous || previous.id !== view.id || !refills.length) return "";
  return `the stock fills ${refills.map((r) => `${r.code} with ${cardText(r.card)}`).join(", ")}`;
}

// -- drawing a view --------------------------------------------------------

function show(view, motion) {
  if (view.status === "abandoned") {
    // left for a new game in another tab or window: go on with that one, as a fresh visit would
    page.view = null;
    toast("this game was left for a new one in another tab or window", 6);
    resume();
    return;
  }
  const previous = page.view;
  page.view = view;
  page.received = performance.now();
  // the name in a span of its own, which a phone on its side cuts short rather than the deal
  const name = Object.assign(document.createElement("span"), { textContent: view.name });
  $("title").replaceChildren(name, ` · ${view.deal === null ? "own position" : `deal ${view.deal}`}`);
  document.title = `${view.name} ${view.deal ?? ""} · cardtable`;
  const game = $("game");
  const known = [...game.options].find((o) => o.value === view.game);
  if (known?.text !== view.name) {
    if (known) known.text = view.name; // kept in other words before
    else game.add(new Option(view.name, view.game));
    store("variants", JSON.stringify({ ...storedVariants(), [view.game]: view.name }));
  }
  game.value = view.game;
  store("game", view.game);
  $("undo").disabled = view.moves === 0 || view.status === "won";
  $("redo").disabled = view.redo === 0 || view.status === "won";
  $("restart").disabled = !restartable(view);
  $("undo").classList.remove("hint");
  const redeal = $("redeal");
  redeal.classList.remove("hint", "guess");
  redeal.hidden = view.redeals_left === null;
  redeal.disabled = !view.can_redeal;
  redeal.textContent = `Redeal (${view.redeals_left ?? 0} left)`;
  redeal.title = view.can_redeal
    ? "Gather the fans, shuffle them and deal them again"
    : view.status === "won"
      ? "The game is won"
      : view.redeals_left
        ? "A redeal is allowed only when no card can move"
        : "No redeals left";
  $("autoplay").parentElement.title = view.autoplay_safe
    ? "Send home the cards that can safely go"
    : "Autoplay sends home only cards proved safe to send; in this position none can be";
  showFacts();
  table.draw(view, motion); // after the status line above it is filled in: its height sets the table's room
  const refill = refillWords(previous, view, motion);
  say(view, motion, refill);
  if (view.message) toast(view.message, 6);
  else if (refill) toast(refill);
  else if (!motion && view.last?.length) toast(dealtAutoplayWords(view.last.length));
  // the dialog greets a game that has just ended (or a deal lost before a move by hand),
  // not one that was already over when the page opened
  const same = previous && previous.id === view.id;
  const ended = same ? previous.status !== view.status : !view.touched;
  const over = view.status === "won" || view.status === "lost";
  if (ended && over) finished(view);
  else if (over && !same) {
    // opened again on a game already over (a reload): say so, and the way on, without the dialog
    const again = view.status === "lost" ? "undo to try another way, or New (N) for another deal" : "New (N) deals another";
    toast(`this game was ${view.status}: ${again}`, 6);
  }
}

function finished(view) {
  stopShow();
  const won = view.status === "won";
  $("result-title").textContent = won ? "You won!" : lostWords(view).title;
  const deal = view.deal === null ? "Own position" : `Deal ${view.deal}`;
  const stuck = !won && view.stuck ? ` Stuck: ${view.stuck}.` : "";
  $("result-text").textContent = `${deal} of ${view.name}: ${plural(view.moves, "move")} in ${clock(view.seconds)}${
    won ? (view.assisted ? ", with the solver's help." : ".") : `.${stuck} Undo to try another way, or deal again.`
  }`;
  $("result-undo").hidden = won;
  $("result-why").hidden = won || view.moves === 0;
  const dialog = $("result");
  if (!dialog.open) dialog.showModal();
}

// -- actions ---------------------------------------------------------------

function refuse(error) {
  if (!(error instanceof ApiError)) throw error;
  toast(error.message);
  if (error.play) show(error.play);
  else if (error.status === 409) refresh();
  else if (error.status === 404 && page.view) resume(); // the game is gone (a new one began in another tab)
}

/** Catch up with changes made elsewhere (another tab, a restarted server). */
async function refresh() {
  if (!page.view) return;
  try {
    const view = await get(`/api/plays/${page.view.id}`);
    if (view.version !== page.view.version) show(view);
  } catch {
    // the next action will say what is wrong
  }
}

let turns = Promise.resolve();
/** Run ``change`` once the changes asked for before it are answered, so that it is sent with the
 *  board the last one left: two quick keypresses make two moves, where the second used to be
 *  refused as if another tab had changed the game. */
function inTurn(change) {
  const turn = turns.then(change, change);
  turns = turn.catch(() => {});
  return turn;
}

/** Post a move; true if the server made it. ``started`` times click-to-redraw. A ``clicked`` move
 *  was not typed: a refusal then gives its reason without the text it quotes ("illegal move: 't0': ..."),
 *  and a choice of places is put in a mouse player's words. */
function playMove(body, started, clicked = false) {
  return inTurn(() => sendMove(body, started, clicked));
}

/** A double-click: the card goes home, or to its one place. One already home is told so, with how
 *  to move it off where it can be, not to type both piles' codes as the typed form is told. */
function sendHome(from, started) {
  const pile = page.view.piles.find((p) => p.id === from);
  if (pile.group !== "foundation") return playMove({ text: pile.code }, started, true);
  const movable = page.view.legal.some((m) => m.from === from);
  toast(`${cardText(pile.cards[pile.cards.length - 1])} is already home${movable ? "; to move it off, pick it, then where it goes" : ""}`);
  return Promise.resolve(false);
}

/** Whether a game is on the table to act on. Before the page has fetched one, an action (a move
 *  typed at once, a key) is told to wait rather than dropped without a word. */
function onTable() {
  if (!page.view) toast("no game on the table yet: try again in a moment");
  return Boolean(page.view);
}

async function sendMove(body, started, clicked = false) {
  if (!onTable()) return false;
  stopShow();
  try {
    const board = page.view.board; // cards moved elsewhere meanwhile: the move is refused (409)
    const view = await post(`/api/plays/${page.view.id}/moves`, { ...body, autoplay: $("autoplay").checked, board });
    show(view, "forward");
    if (started !== undefined) {
      requestAnimationFrame(() => page.timings.push(performance.now() - started));
    }
    return true;
  } catch (error) {
    if (clicked && error instanceof ApiError && error.places) {
      error.message = `it could go to ${error.places.join(", ")}: pick it, then the one you want`;
    } else if (clicked && error instanceof ApiError && error.reason) {
      error.message = error.reason; // the player did not type the move the message quotes
    }
    refuse(error);
    return false;
  }
}

/** "Autoplay now" (the A key, or ticking the box): say so when nothing can go, rather than nothing at all. */
async function autoplayNow() {
  if (!page.view || page.view.status !== "playing") return;
  if (!page.view.autoplay_safe) {
    toast("autoplay sends home only cards proved safe to send; in this position none can be");
    return;
  }
  const done = await act("autoplay", "forward");
  if (done && page.view && page.view.status === "playing" && !(page.view.last || []).length) {
    toast("autoplay: no card can go home now"); // a refusal was told already, and stays told
  }
}

/** Whether Restart changes anything: not at the deal, nor at its autoplay with the box ticked (which
 *  would only make it again). */
function restartable(view) {
  return view.moves > 0 && view.status !== "won" && (view.by_hand || !$("autoplay").checked);
}

/** The news of autoplay as a deal is dealt or restarted, which the player did not ask for by a move. */
function dealtAutoplayWords(sent) {
  return `autoplay sent ${plural(sent, "card")} home as the deal began: undo takes ${sent === 1 ? "it" : "them"} back`;
}

/** Back to the deal: with autoplay ticked, its safe cards go home again, as when it was opened (if the
 *  moves began so: a line played without them stays whole to redo). */
function restart() {
  return act("restart", undefined, { autoplay: $("autoplay").checked });
}

/** Ask the server for an action on the play, in turn; whether it was done (a refusal is told). */
function act(path, motion, query = {}) {
  return inTurn(() => sendAction(path, motion, query));
}

async function sendAction(path, motion, query) {
  if (!onTable()) return false;
  stopShow();
  const params = new URLSearchParams({ board: page.view.board, ...query });
  try {
    show(await post(`/api/plays/${page.view.id}/${path}?${params}`), motion);
    return true;
  } catch (error) {
    refuse(error);
    return false;
  }
}

/** Whether the player has made moves by hand in this play, even if all are taken back: a new deal
 *  of its game abandons it (the server does so), and it then counts as lost. Autoplay alone (the
 *  safe cards sent home as the deal was opened) touches no game. */
function touched(v) {
  return v.status === "playing" && v.touched;
}

/** Start a game; true if it is shown, false if the player stayed or the server refused. */
async function newGame(options = {}) {
  stopShow();
  const game = options.game || $("game").value || DEFAULT_GAME;
  const shown = page.view;
  await refresh(); // another tab may have played this game since the page last saw it
  if (shown && !page.view) return false; // it left this game for another: the page goes on with that one
  const v = page.view;
  if (v && v.game === game && touched(v) && !confirm(LEAVE)) return false;
  const body = { game, autoplay: $("autoplay").checked }; // the safe cards go home as the deal is dealt
  if (options.deal !== undefined) body.deal = options.deal;
  else if ($("winnable").checked) {
    body.winnable = true;
    toast("looking for a deal the solver proves winnable…", 20);
  }
  return busy(async () => {
    try {
      show(await post("/api/plays", body));
      return true;
    } catch (error) {
      refuse(error);
      return false;
    }
  });
}

async function switchGame(game) {
  stopShow();
  try {
    show(await get(`/api/plays/current?game=${encodeURIComponent(game)}`));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) await newGame({ game });
    else refuse(error);
  }
}

/** Run a slow request with the solver buttons disabled and a wait cursor. */
async function busy(work) {
  page.busy++;
  document.body.classList.add("busy");
  for (const id of ["hint", "verdict", "show", "new"]) $(id).disabled = true;
  try {
    return await work();
  } finally {
    if (--page.busy === 0) {
      document.body.classList.remove("busy");
      for (const id of ["hint", "verdict", "show", "new"]) $(id).disabled = false;
    }
  }
}

async function ask(path, thinking) {
  if (!onTable()) return null;
  if (page.asking) {
    // As the buttons are, while one waits: a question asked from a key or the move box would queue
    // behind the one the server is answering, and hold the solver for a table already left.
    toast(page.asking, 30);
    return null;
  }
  const id = page.view.id;
  toast(thinking, 30);
  page.asking = thinking;
  return busy(async () => {
    try {
      const answer = await post(`/api/plays/${id}/${path}`);
      if (answer.board === page.view.board && id === page.view.id) return answer;
      toast("the game moved on while the solver thought: ask again");
      return null;
    } catch (error) {
      refuse(error);
      return null;
    } finally {
      page.asking = null;
    }
  });
}

async function hint() {
  const answer = await ask("hint", "the solver is looking for a winning move…");
  if (!answer) return;
  const move = answer.moves[0] || answer.guess;
  if (!move) {
    wayBack(answer);
    return;
  }
  const guess = !answer.moves[0];
  table.hint(move, guess);
  $("redeal").classList.toggle("hint", move.kind === "redeal");
  $("redeal").classList.toggle("guess", move.kind === "redeal" && guess);
  const what = moveWords(move);
  if (answer.moves[0]) toast(`Hint: ${what}`, 6);
  else toast(`Best guess: ${what}. No win or loss proved within the solver's time: it may not win.`, 8);
}

async function verdict() {
  const answer = await ask("verdict", "the solver is thinking…");
  if (answer) wayBack(answer);
}

/** Say the solver's answer; in a lost position that an undo can mend, the Undo button glows. */
function wayBack(answer) {
  $("undo").classList.toggle("hint", answer.undo !== null);
  toast(answer.message, 8);
}

function stopShow() {
  if (page.show) page.show.stop = true;
  page.show = null;
  $("show").textContent = "Show me";
}

async function showMe() {
  if (page.show) {
    stopShow();
    return;
  }
  const answer = await ask("solution", "the solver is working out a winning line…");
  if (!answer) return;
  if (answer.status !== "won" || !answer.moves.length) {
    wayBack(answer);
    return;
  }
  await refresh(); // showing a line marked the game as helped: the page shows it at once
  toast(`${answer.message}; playing it`, 3);
  const run = { stop: false };
  page.show = run;
  $("show").textContent = "Stop";
  for (const move of answer.moves) {
    await new Promise((done) => setTimeout(done, Number($("speed").value)));
    if (run.stop) return;
    const body = move.kind === "card" ? { from: move.from, to: move.to, card: move.card } : move.kind === "deal" ? { deal: "stock" } : { redeal: null };
    try {
      show(await post(`/api/plays/${page.view.id}/moves`, { move: body, board: page.view.board }), "forward");
    } catch (error) {
      refuse(error);
      break;
    }
    if (run.stop) return;
  }
  if (page.show === run) stopShow();
}

// -- controls and keys -----------------------------------------------------

const MENU_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

/** The game menu: a choice made with the mouse switches at once; keys on the closed menu (arrows,
 *  a letter) only move through the names, and Enter or leaving the menu switches, so that reading
 *  the list with the keyboard does not open every game on the way. */
function wireGameSelect(select) {
  let keyed = false;
  const choose = () => {
    keyed = false;
    if (!page.view || select.value !== page.view.game) switchGame(select.value);
  };
  select.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && keyed) {
      e.preventDefault(); // the choice is made: not the list opened as well
      choose();
    } else if (e.key === "Escape") {
      keyed = false; // back to the game on the table, before the page's Escape takes the focus away
      if (page.view) select.value = page.view.game;
    } else if (MENU_KEYS.has(e.key) || (/^\S$/u.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey)) {
      keyed = true; // arrows, Home, End, Page keys, or a letter that jumps to a name (Space opens the list)
    }
  });
  select.addEventListener("pointerdown", () => {
    keyed = false;
  });
  select.addEventListener("change", () => {
    if (!keyed) choose();
  });
  select.addEventListener("blur", () => {
    if (keyed) choose();
  });
}

function wire() {
  $("new").onclick = () => newGame();
  wireGameSelect($("game"));
  $("deal-form").onsubmit = (e) => {
    e.preventDefault();
    const deal = dealNumber($("deal-number").value.trim());
    if (deal !== null) newGame({ deal });
    else toast(DEAL_RULE);
  };
  $("undo").onclick = () => act("undo", "back");
  $("redo").onclick = () => act("redo", "forward");
  $("restart").onclick = restart;
  $("hint").onclick = hint;
  $("verdict").onclick = verdict;
  $("show").onclick = showMe;
  $("redeal").onclick = () => playMove({ move: { redeal: null } }, performance.now());
  $("winnable").checked = stored("winnable", "false") === "true";
  $("winnable").onchange = (e) => store("winnable", e.target.checked);
  $("letter-keys").checked = stored("letter-keys", "true") === "true";
  $("letter-keys").onchange = (e) => store("letter-keys", e.target.checked);
  $("autoplay").checked = stored("autoplay", "true") === "true";
  $("autoplay").onchange = (e) => {
    store("autoplay", e.target.checked);
    if (page.view) $("restart").disabled = !restartable(page.view);
    if (e.target.checked) autoplayNow();
  };
  $("command-form").onsubmit = async (e) => {
    e.preventDefault();
    const box = $("command");
    const text = box.value.trim();
    const word = WORDS.get(text.toLowerCase());
    const undoCount = /^(?:undo|u)\s+([0-9]+)$/i.exec(text);
    if (word) {
      box.value = "";
      word();
    } else if (undoCount && Number(undoCount[1]) === 0) {
      toast("'undo' takes a count of moves from 1 up, like 'undo 3'");
    } else if (undoCount) {
      box.value = "";
      act("undo", "back", { times: undoCount[1] });
    } else if (text) {
      box.value = ""; // at once: what is typed while the move goes is the next move, not to be wiped
      if (!(await playMove({ text }, performance.now())) && !box.value) {
        box.value = text; // refused: back in the box to mend, unless the player typed on
        box.select();
      }
    }
  };
  $("rules-button").onclick = showRules;
  $("menu").onclick = () => openMenu(!$("bar").classList.contains("open"));
  $("rules-close").onclick = () => $("rules").close();
  $("rules-text").addEventListener("scroll", moreBelow);
  $("result-close").onclick = () => $("result").close();
  $("result-undo").onclick = () => {
    $("result").close();
    act("undo", "back");
  };
  $("result-why").onclick = () => {
    $("result").close();
    verdict();
  };
  $("result-next").onclick = () => {
    $("result").close();
    newGame();
  };
  document.addEventListener("keydown", key);
  window.addEventListener("resize", () => table.redraw());
  // the table takes the room below the toolbar and status line: when they wrap anew, lay out again
  const above = new ResizeObserver(() => table.redraw());
  above.observe($("bar"));
  above.observe($("status"));
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && refresh());
}

/** Open or close the menu of a narrow screen, which also holds the move box there. While it is open
 *  the table keeps its way: the room the menu takes is given back as it closes. */
function openMenu(open) {
  $("bar").classList.toggle("open", open);
  $("menu").setAttribute("aria-expanded", open);
  table.held = open;
  table.redraw();
}

function showRules() {
  const base = page.view ? page.view.game.split("(")[0] : DEFAULT_GAME;
  const game = page.games.find((g) => g.id === base);
  if (!game) return;
  const note = page.view && page.view.rules_note;
  $("rules-title").textContent = page.view ? page.view.name : game.name;
  $("rules-text").replaceChildren(...(note ? [rulesNote(note)] : []), ...reflow(game.rules));
  $("rules-text").scrollTop = 0;
  optionsForm(game, page.view ? page.view.game : game.id);
  $("rules").showModal();
  moreBelow();
}

/** Fade the rules' last visible line while more lies below it: on a short screen the text scrolls, and
 *  a cut that falls between two paragraphs would look like the end. */
function moreBelow() {
  const text = $("rules-text");
  text.classList.toggle("more-below", text.scrollTop + text.clientHeight < text.scrollHeight - 2);
}

/** The game's options, set as in ``shown`` (an id such as "alexander-the-great-lucie(redeals=0)"),
 *  to play the rules another way: the game menu offers only the ids played so far. */
function optionsForm(game, shown) {
  const form = $("rules-options");
  const defaults = Object.entries(game.defaults);
  form.hidden = defaults.length === 0;
  const set = Object.fromEntries(
    (shown.match(/\((.*)\)$/)?.[1] ?? "").split(",").filter(Boolean).map((part) => part.split("=")),
  );
  $("rules-fields").replaceChildren(
    ...defaults.map(([name, value]) => {
      const input = document.createElement("input");
      input.name = name;
      if (typeof value === "boolean") {
        input.type = "checkbox";
        input.checked = (set[name] ?? String(value)) === "true";
      } else {
        Object.assign(input, { type: "number", min: 0, max: 100, required: true, value: set[name] ?? value });
      }
      const label = document.createElement("label");
      const words = game.labels[name] ?? name;
      if (input.type === "checkbox") label.append(input, ` ${words}`);
      else label.append(`${words} `, input);
      return label;
    }),
  );
  form.onsubmit = async (e) => {
    e.preventDefault();
    const changed = defaults
      .map(([name, value]) => [name, typeof value === "boolean" ? form.elements[name].checked : Number(form.elements[name].value)])
      .filter(([name, value]) => value !== game.defaults[name])
      .map(([name, value]) => `${name}=${value}`);
    const id = changed.length ? `${game.id}(${changed.join(",")})` : game.id;
    const deal = page.view?.deal;
    $("rules").close();
    if (deal == null) return switchGame(id); // a position of the player's own: a deal of the new rules
    // the same deal under the new rules, as a link to it opens it
    $("toast").hidden = true;
    if ((await openLink(new URLSearchParams({ game: id, deal }))) && page.view.deal === deal) {
      const said = $("toast").hidden ? "" : `; ${$("toast").textContent}`;
      toast(`deal ${deal} under these rules${said}`, said ? 6 : 3.5);
    }
  };
}

/** What the game's options change, set apart above rules written for the defaults. */
function rulesNote(text) {
  const el = document.createElement("p");
  el.className = "rules-note";
  el.textContent = text;
  return el;
}

/** The rules' plain text (wrapped for a terminal) as paragraphs and lists that wrap to the dialog. */
function reflow(text) {
  const nodes = [];
  for (const paragraph of text.trim().split(/\n\s*\n/)) {
    const blocks = [];
    for (const line of paragraph.split("\n")) {
      const item = line.startsWith("- ");
      const last = blocks[blocks.length - 1];
      if (!last || item || (last.item && !line.startsWith(" "))) blocks.push({ item, text: line.replace(/^- /, "") });
      else last.text += ` ${line.trim()}`;
    }
    let list = null;
    for (const block of blocks) {
      const el = document.createElement(block.item ? "li" : "p");
      el.textContent = block.text;
      if (block.item) {
        if (!list) nodes.push((list = document.createElement("ul")));
        list.append(el);
      } else {
        list = null;
        nodes.push(el);
      }
    }
  }
  return nodes;
}

/** The terminal's words that make sense on the page: the move box does them itself, as the
 *  buttons do, rather than send them to the server, which reads only moves. */
const HELP =
  "type a move: 't3 f1' (from pile t3 to f1), 't3' or a card like '7c' (home, or to its one place), " +
  "'d' (deal), 'redeal'; or a word: undo (or 'undo 3'), redo, restart, hint, help";
const WORDS = new Map([
  ["help", () => toast(HELP, 12)],
  ["undo", () => act("undo", "back")],
  ["redo", () => act("redo", "forward")],
  ["restart", restart],
  ["hint", hint],
]);

const KEYS = {
  h: hint,
  w: verdict,
  s: showMe,
  n: () => newGame(),
  a: autoplayNow,
  d: () => playMove({ move: { deal: "stock" } }),
  "?": showRules,
};

function key(e) {
  if (document.querySelector("dialog[open]")) return;
  const typing = e.target.closest("input:not([type=checkbox]), select, textarea");
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && !typing && e.key.toLowerCase() === "z") {
    e.preventDefault();
    act(e.shiftKey ? "redo" : "undo", e.shiftKey ? "forward" : "back");
  } else if (ctrl && !typing && e.key.toLowerCase() === "y") {
    e.preventDefault();
    act("redo", "forward");
  } else if (e.key === "Escape") {
    table.putDown();
    stopShow();
    if (typing) e.target.blur();
  } else if (!typing && !ctrl && !e.altKey) {
    if (e.key === "/") {
      e.preventDefault();
      if (!$("command").offsetParent) openMenu(true); // hidden in the closed menu of a narrow screen
      $("command").focus();
    } else {
      // a letter means the same with Shift or Caps Lock on; "?" is itself a shifted key
      const action = KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
      if (action && page.view && $("letter-keys").checked) {
        e.preventDefault();
        action();
      }
    }
  }
}

// -- start -----------------------------------------------------------------

/** The deal number ``text`` names, or null if it names none. */
function dealNumber(text) {
  return /^[0-9]+$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_DEAL ? Number(text) : null;
}

/** Open what a link names, ``?game=G&deal=N`` (either may be left out): the play of G in
 *  progress if it is that deal, else a new one, asking first before a touched play is lost.
 *  False if the link is refused; the toast says why. */
async function openLink(params) {
  const game = params.get("game") || stored("game", DEFAULT_GAME);
  const deal = params.has("deal") ? dealNumber(params.get("deal")) : undefined;
  if (deal === null) {
    toast(`the link's deal '${params.get("deal")}' is not a deal number: ${DEAL_RULE}`, 8);
    return false;
  }
  let current = null;
  try {
    current = await get(`/api/plays/current?game=${encodeURIComponent(game)}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status !== 404) {
      toast(error.message, 8); // an unknown game, or a bad option of one
      return false;
    }
  }
  if (current && (deal === undefined || resumes(current, deal))) {
    show(current);
    return true;
  }
  return newGame({ game, deal });
}

/** Whether a link to ``deal`` resumes this play rather than deal anew (abandoning it):
 *  it is that deal, or the player would rather keep it. */
function resumes(play, deal) {
  if (play.status !== "playing") return false;
  return play.deal === deal || (touched(play) && !confirm(LEAVE));
}

/** What a plain visit shows: the game the player touched last, else a new one. */
async function resume() {
  try {
    show(await get("/api/plays/current"));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    await newGame({ game: stored("game", DEFAULT_GAME) });
  }
}

async function boot() {
  wire();
  page.games = await get("/api/games");
  for (const g of page.games) $("game").add(new Option(g.name, g.id));
  // the ids with options played here before, which the menu keeps offering (the server still checks each)
  for (const [id, name] of Object.entries(storedVariants())) $("game").add(new Option(name, id));
  const params = new URLSearchParams(location.search);
  if (params.has("game") || params.has("deal")) {
    history.replaceState(null, "", "/");
    if (await openLink(params)) return;
  }
  await resume(); // a refused link falls back to it, its toast still showing
}

boot().catch((error) => toast(String(error.message || error), 10));
