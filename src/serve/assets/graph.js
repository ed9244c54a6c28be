// othbook explorer: the review's evaluation graph. Black's score after every ply (the review
// answer's `series`), the zero line, the losses marked; a click anywhere on the graph shows
// the position after the nearest ply on the board.
"use strict";

const GRAPH = { w: 760, h: 240, top: 14, left: 40, right: 12, bottom: 30 };
const MARK_COLOURS = { inaccuracy: "#d9a400", mistake: "#e06c00", blunder: "#c8102e" };
const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The width in pixels a chart in `box` is shown at: its section's, 320 to 760.
function chartWidth(box) {
  const shown = box.parentElement ? box.parentElement.clientWidth : 0;
  return Math.round(Math.min(760, Math.max(320, shown || 760)));
}

// The half-height of the score axis: the largest score rounded up to 8 discs, 8 to 64.
function graphScale(series) {
  const most = Math.max(0, ...series.map((p) => Math.ceil(Math.abs(p.black))));
  return Math.min(64, Math.max(8, Math.ceil(most / 8) * 8));
}

// Draws the graph of review answer `a` into #review-graph; the board's position is marked by
// markReviewGraph.
function drawReviewGraph(a) {
  const box = $("review-graph");
  box.textContent = "";
  const series = a.series || [];
  if (!series.length) {
    box.hidden = true;
    return;
  }
  // Drawn at the width it is shown at (a phone's included), so that its text stays legible.
  const g = { ...GRAPH, w: chartWidth(box) };
  const plies = Math.max(1, a.moves.length ? a.moves[a.moves.length - 1].ply : 1);
  const m = graphScale(series);
  const w = g.w - g.left - g.right;
  const h = g.h - g.top - g.bottom;
  const x = (ply) => g.left + (w * ply) / plies;
  const y = (v) => g.top + (h * (m - v)) / (2 * m);
  const svg = svgElement("svg", {
    viewBox: `0 0 ${g.w} ${g.h}`,
    role: "img",
    "aria-label": "Score after each move, black minus white",
  });
  svgElement("rect", { x: g.left, y: g.top, width: w, height: h / 2, class: "black-ahead" }, svg);
  svgElement("rect", { x: g.left, y: g.top, width: w, height: h, class: "frame" }, svg);
  for (const k of [-2, -1, 0, 1, 2]) {
    const v = (m * k) / 2;
    svgElement("line", { x1: g.left, x2: g.w - g.right, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "grid" }, svg);
    svgElement("text", { x: g.left - 5, y: y(v) + 4, "text-anchor": "end" }, svg).textContent = v === 0 ? "0" : fmt(v, 0);
  }
  const step = plies > 30 && g.w >= 500 ? 10 : plies > 30 ? 20 : 5;
  for (let ply = 0; ply <= plies; ply += step) {
    svgElement("text", { x: x(ply), y: g.h - g.bottom + 16, "text-anchor": "middle", class: "ply" }, svg).textContent = ply;
  }
  svgElement("line", { class: "cursor", x1: 0, x2: 0, y1: g.top, y2: g.h - g.bottom, visibility: "hidden" }, svg);
  svgElement("polyline", {
    class: "score",
    points: series.map((p) => `${x(p.ply).toFixed(1)},${y(p.black).toFixed(1)}`).join(" "),
  }, svg);
  for (const p of series) {
    const attrs = { cx: x(p.ply), cy: y(p.black), r: p.mark ? 5 : 2.5, "data-ply": p.ply };
    attrs.class = p.mark ? `point mark mark-${p.mark}` : "point";
    if (p.mark) attrs.fill = MARK_COLOURS[p.mark];
    const dot = svgElement("circle", attrs, svg);
    const row = a.moves.find((r) => r.ply === p.ply);
    const what = row ? ` ${row.move} (${row.side})` : "";
    svgElement("title", {}, dot).textContent =
      `${p.ply}.${what}: black ${fmt(p.black, p.exact ? 0 : 2)}` + (p.mark ? `, ${p.mark}` : "");
  }
  // A click goes to the position after the nearest ply (0: the start).
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const at = ((e.clientX - r.left) / r.width) * g.w;
    const ply = Math.max(0, Math.min(plies, Math.round(((at - g.left) / w) * plies)));
    showReviewed(ply + 1);
  });
  box.appendChild(svg);
  box.dataset.points = series.length;
  box.hidden = false;
  GRAPH.x = x;
}

// Marks the board's position on the graph (`cursor`: plies played, or null when the board
// does not show the reviewed game).
function markReviewGraph(cursor) {
  const line = document.querySelector("#review-graph line.cursor");
  if (!line) return;
  for (const c of document.querySelectorAll("#review-graph circle.current")) c.classList.remove("current");
  if (cursor === null || !GRAPH.x) {
    line.setAttribute("visibility", "hidden");
    return;
  }
  const xx = GRAPH.x(cursor);
  line.setAttribute("x1", xx);
  line.setAttribute("x2", xx);
  line.setAttribute("visibility", "visible");
  const dot = document.querySelector(`#review-graph circle[data-ply="${cursor}"]`);
  if (dot) dot.classList.add("current");
  $("review-graph").dataset.cursor = cursor;
}

// Charts are drawn at the width they are shown at: a window that changes width (a phone
// turned) redraws them.
let chartsWidth = window.innerWidth;
window.addEventListener("resize", () => {
  if (window.innerWidth === chartsWidth) return;
  chartsWidth = window.innerWidth;
  if (review.answer && !$("review-graph").hidden) {
    drawReviewGraph(review.answer);
    markReviewed();
  }
  if (lastHistory) drawHistory(lastHistory);
});
