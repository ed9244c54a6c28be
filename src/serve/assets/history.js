// othbook explorer: each reply's share of the games year by year (/api/v1/history), drawn as
// stacked bars under the move table: the most played replies, then the others together.
"use strict";

const HISTORY = { w: 760, h: 170, top: 8, left: 34, right: 8, bottom: 22, replies: 5 };
const HISTORY_COLOURS = ["#1f5f99", "#e07b00", "#2e8b57", "#b8336a", "#7a5cc4", "#b0b0b0"];

// Asks for the history of the position shown (request `id`), then draws it.
async function loadHistory(id) {
  let h;
  try {
    h = await api("history", params(state.filters));
  } catch (e) {
    if (id === state.request) {
      $("history").hidden = true;
      $("history").textContent = "";
    }
    return;
  }
  if (id !== state.request) return;
  drawHistory(h);
}

// The series drawn: the top replies, then "other" for the rest (when there is a rest).
function historySeries(h) {
  const top = h.moves.slice(0, HISTORY.replies).map((m) => ({ name: m.move, by_year: m.by_year, games: m.games }));
  const rest = h.moves.slice(HISTORY.replies);
  if (rest.length) {
    top.push({
      name: "other",
      by_year: h.years.map((_, i) => rest.reduce((n, m) => n + m.by_year[i], 0)),
      games: rest.reduce((n, m) => n + m.games, 0),
    });
  }
  return top;
}

// The history drawn last, redrawn when the window changes width.
let lastHistory = null;

function drawHistory(h) {
  lastHistory = h;
  const box = $("history");
  box.textContent = "";
  box.dataset.line = h.line;
  if (!h.years.length || !h.moves.length) {
    box.hidden = true;
    box.dataset.bars = 0;
    return;
  }
  const g = { ...HISTORY, w: chartWidth(box) };
  const series = historySeries(h);
  const title = document.createElement("h2");
  title.textContent = "Replies by year";
  box.appendChild(title);
  const note = document.createElement("p");
  note.className = "note";
  note.textContent = "Each bar is one year: the share of that year's games that played each reply. Hover a bar for the counts.";
  box.appendChild(note);
  const w = g.w - g.left - g.right;
  const hh = g.h - g.top - g.bottom;
  const slot = w / h.years.length;
  const svg = svgElement("svg", { viewBox: `0 0 ${g.w} ${g.h}`, role: "img", "aria-label": "Replies by year" });
  for (const pct of [0, 50, 100]) {
    const y = g.top + hh * (1 - pct / 100);
    svgElement("line", { x1: g.left, x2: g.w - g.right, y1: y, y2: y, stroke: "#ddd" }, svg);
    svgElement("text", { x: g.left - 4, y: y + 4, "text-anchor": "end" }, svg).textContent = pct + "%";
  }
  let bars = 0;
  h.years.forEach((year, i) => {
    const played = series.reduce((n, s) => n + s.by_year[i], 0);
    const x = g.left + slot * i;
    let y = g.top + hh;
    series.forEach((s, k) => {
      const n = s.by_year[i];
      if (!n) return;
      const height = (hh * n) / played;
      y -= height;
      const bar = svgElement("rect", {
        x: x + slot * 0.1, y, width: Math.max(1, slot * 0.8), height,
        fill: HISTORY_COLOURS[k], class: "bar", "data-year": year, "data-move": s.name,
      }, svg);
      svgElement("title", {}, bar).textContent =
        `${year}: ${s.name} in ${n} of ${played} games (${pct(n, played).toFixed(0)}%)`;
      bars++;
    });
    const every = h.years.length * 40 > g.w ? 10 : h.years.length > 8 ? 5 : 1;
    if (year % every === 0 || h.years.length === 1) {
      svgElement("text", { x: x + slot / 2, y: g.h - 6, "text-anchor": "middle", class: "year" }, svg).textContent = year;
    }
  });
  box.appendChild(svg);
  const legend = document.createElement("div");
  legend.className = "legend";
  series.forEach((s, k) => {
    const item = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = HISTORY_COLOURS[k];
    item.appendChild(swatch);
    item.appendChild(document.createTextNode(`${s.name} (${s.games})`));
    legend.appendChild(item);
  });
  box.appendChild(legend);
  box.dataset.bars = bars;
  box.hidden = false;
}
