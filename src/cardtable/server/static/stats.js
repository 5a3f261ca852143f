// The statistics page: per game, then the past games, from GET /api/stats.

import { get } from "./api.js";

/** A table row; a cell is text, or a node such as a link. */
function row(cells, classes = []) {
  const tr = document.createElement("tr");
  cells.forEach((cell, i) => {
    const td = document.createElement("td");
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell;
    if (classes[i]) td.className = classes[i];
    tr.append(td);
  });
  return tr;
}

function empty(body, columns, text) {
  const tr = row([text]);
  tr.firstChild.colSpan = columns;
  tr.firstChild.className = "empty";
  body.append(tr);
}

/** A past game's deal number, as a link that opens the same deal again to play. */
function dealLink(p) {
  if (p.deal === null) return "own";
  const link = document.createElement("a");
  link.href = `/?${new URLSearchParams({ game: p.game, deal: p.deal })}`;
  link.textContent = p.deal;
  link.title = "Play this deal again";
  link.setAttribute("aria-label", `play deal ${p.deal} again`); // the number alone says nothing of where it goes
  return link;
}

const minutes = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
const RESULTS = { won: "won", lost: "lost", abandoned: "abandoned", playing: "playing" };

async function main() {
  const stats = await get("/api/stats");
  const names = Object.fromEntries(stats.games.map((g) => [g.game, g.name]));
  const games = document.querySelector("#per-game tbody");
  for (const g of stats.games) {
    games.append(
      row(
        [g.positions ? `${g.name} (own positions)` : g.name, g.played, g.won, `${(g.win_rate * 100).toFixed(1)}%`, g.current_streak, g.best_streak],
        ["", "n", "n", "n", "n", "n"],
      ),
    );
  }
  if (!stats.games.length) empty(games, 6, "No game finished yet.");
  const history = document.querySelector("#history tbody");
  for (const p of stats.history) {
    const when = p.finished ? new Date(p.finished * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" }) : "";
    const result = RESULTS[p.status] + (p.assisted ? " (solver helped)" : "");
    history.append(
      row([when, names[p.game] || p.game, dealLink(p), result, p.moves, minutes(p.seconds)], ["", "", "n", p.status, "n", "n"]),
    );
  }
  if (!stats.history.length) empty(history, 6, "No past games yet.");
  // the server sends the latest games only: say so where some played are not listed
  const played = stats.games.reduce((n, g) => n + g.played, 0);
  const listed = stats.history.filter((p) => p.status !== "playing").length;
  if (played > listed) empty(history, 6, `The latest ${listed} of the ${played} games played are listed.`);
}

main();
