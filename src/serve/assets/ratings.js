// othbook explorer: the ratings fitted from the book's games (docs/ratings.md) on the page:
// the players' ratings in the games list, "recent" or "top" games (order=rating), each move's
// average rating and performance in the move table (ratings=true), and the game filters,
// rating floor included, kept in the address so that a shared link shows the same games.
"use strict";

// The filters the form sends, in the order the address lists them.
const FILTER_NAMES = ["player", "color", "years", "event", "min_rating"];

// A player's name and rating for the games list: "Tamenori 2215", "?" for a missing name.
function playerCell(name, rating) {
  const span = document.createElement("span");
  span.textContent = name || "?";
  if (rating != null) {
    const r = document.createElement("span");
    r.className = "elo";
    r.textContent = String(Math.round(rating));
    span.append(" ", r);
  }
  return span;
}

// The move table's average rating and performance columns, shown when the option is on.
function drawMoveRatings(a) {
  const table = $("moves");
  const rated = new Map(((a.ratings && a.ratings.moves) || []).map((r) => [r.move, r]));
  table.classList.toggle("with-ratings", !!a.ratings);
  for (const tr of table.querySelectorAll("tbody tr")) {
    const opening = tr.querySelector("td.opening");
    if (!opening) continue;
    const r = rated.get(tr.dataset.move);
    const rating = (x) => (x == null ? "–" : String(Math.round(x)));
    for (const [text, cls] of [[r ? rating(r.average_rating) : "–", "avg-rating"], [r ? rating(r.performance) : "–", "performance"]]) {
      const td = document.createElement("td");
      td.className = `num rating ${cls}`;
      td.textContent = text;
      if (r) td.title = `${r.rated_games} rated game${r.rated_games === 1 ? "" : "s"}`;
      tr.insertBefore(td, opening);
    }
  }
}

// The games summary's note on which games are listed.
function listedText(shown, total) {
  if (total <= shown) return "";
  return state.order === "rating" ? ` (the ${shown} top rated shown)` : ` (the ${shown} most recent shown)`;
}

// The filters, the order and the ratings option into the address `p`.
function saveOptions(p) {
  for (const k of FILTER_NAMES) if (state.filters[k]) p.set(k, state.filters[k]);
  if (state.order === "rating") p.set("order", "rating");
  if (state.ratings) p.set("ratings", "1");
}

// The filters, the order and the ratings option from the address `p`, shown in the form.
function readOptions(p) {
  const f = {};
  for (const k of FILTER_NAMES) {
    const v = (p.get(k) || "").trim();
    if (v) f[k] = v;
  }
  if (!f.player) delete f.color;
  state.filters = f;
  state.order = p.get("order") === "rating" ? "rating" : "recent";
  state.ratings = ["1", "true"].includes(p.get("ratings"));
  const form = $("filters");
  for (const k of FILTER_NAMES) form.elements[k].value = f[k] || "";
  $("order").value = state.order;
  $("show-ratings").checked = state.ratings;
}

// Loaded before app.js (whose start reads the address with readOptions): these run now, so
// they use no helper of app.js.
document.getElementById("order").addEventListener("change", (e) => {
  state.order = e.target.value;
  saveHash();
  loadGames(state.request);
});
document.getElementById("show-ratings").addEventListener("change", (e) => {
  state.ratings = e.target.checked;
  load();
});
