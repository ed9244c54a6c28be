// othbook opening explorer: the page keeps the line (and where it stands in it); the server
// answers everything about a position (board, legal moves, the book's moves and games).
"use strict";

const FILES = "abcdefgh";
const START = null; // the standard start position: no `position` parameter

const state = {
  start: START,     // OBF of a pasted board, or null
  moves: [],        // the line, two characters a move ("pa" for a pass)
  cursor: 0,        // moves shown: moves[0..cursor]
  flipped: false,
  book: null,       // the book asked (null: the server's default)
  depth: "",
  filters: {},      // the game filters (ratings.js keeps them in the address)
  order: "recent",  // the games listed: "recent" or "rating" (top games)
  ratings: false,   // the move table shows each move's average rating and performance
  answer: null,     // the last /explore answer
  game: null,       // the game being stepped through
  request: 0,       // answers to older requests are dropped
  explore: null,    // aborts the /explore request under way (the server stops its search)
};

const $ = (id) => document.getElementById(id);

// Where other scripts of the page (play.js) join in: after a position loads, after the board
// is drawn, when the server's info arrives; `mayPlay` says whether a click may play a move.
const hooks = { loaded: [], boardDrawn: [], info: [], mayPlay: null };

function params(extra) {
  const p = new URLSearchParams();
  if (state.book) p.set("book", state.book);
  if (state.start) p.set("position", state.start);
  p.set("moves", state.moves.slice(0, state.cursor).join(""));
  for (const [k, v] of Object.entries(extra || {})) if (v !== "" && v != null) p.set(k, v);
  return p;
}

async function api(path, p, signal) {
  const r = await fetch(`/api/v1/${path}?${p}`, { signal });
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

function setStatus(text, error) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", !!error);
}

function splitLine(text) {
  const out = [];
  for (let i = 0; i + 1 < text.length; i += 2) out.push(text.slice(i, i + 2));
  return out;
}

function pct(n, total) {
  return total > 0 ? (100 * n) / total : 0;
}

function fmt(x, digits = 2) {
  if (x === null || x === undefined) return "–";
  const s = Number(x).toFixed(digits);
  return x > 0 ? "+" + s : s;
}

// A book value with its expected error: "-0.19 ±0.9", "+4 ±0" when exact, "+1 wld" when only
// its sign is sure (see docs/values.md).
function valueText(v) {
  if (v.value === null || v.value === undefined) return "–";
  const exact = v.value_kind === "exact" || v.value_kind === "wld";
  const text = fmt(v.value, exact ? 0 : 2);
  if (v.error === null || v.error === undefined) return v.value_kind === "wld" ? text + " wld" : text;
  return `${text} ±${v.error === 0 ? "0" : v.error.toFixed(1)}`;
}

// A chance in whole percent, never 0% or 100% unless certain.
function chance(p) {
  const pc = Math.round(p * 100);
  return (p > 0 && p < 1 ? Math.min(99, Math.max(1, pc)) : pc) + "%";
}

// "black wins 46%": the chance to win of the side the chances are for.
function chancesText(v) {
  if (v.win === null || v.win === undefined || !v.chances_for) return "";
  return `${v.chances_for} wins ${chance(v.win)}`;
}

// ---- the board ----

function squareName(i) {
  return FILES[i % 8] + (Math.floor(i / 8) + 1);
}

function buildBoard() {
  const b = $("board");
  b.textContent = "";
  for (let r = 0; r < 8; r++) {
    const row = state.flipped ? 7 - r : r;
    const label = document.createElement("div");
    label.className = "coord";
    label.textContent = row + 1;
    b.appendChild(label);
    for (let c = 0; c < 8; c++) {
      const col = state.flipped ? 7 - c : c;
      const sq = document.createElement("div");
      sq.className = "sq";
      sq.dataset.sq = squareName(row * 8 + col);
      sq.id = "sq-" + sq.dataset.sq;
      sq.addEventListener("click", () => playSquare(sq.dataset.sq));
      b.appendChild(sq);
    }
  }
  b.appendChild(document.createElement("div"));
  for (let c = 0; c < 8; c++) {
    const label = document.createElement("div");
    label.className = "coord";
    label.textContent = FILES[state.flipped ? 7 - c : c];
    b.appendChild(label);
  }
}

function drawBoard() {
  const a = state.answer;
  if (!a) return;
  const cells = a.position.slice(0, 64);
  const legal = new Set(a.legal);
  const inBook = new Set(a.moves.filter((m) => m.games > 0).map((m) => m.move));
  const last = state.cursor > 0 ? state.moves[state.cursor - 1] : null;
  for (let i = 0; i < 64; i++) {
    const name = squareName(i);
    const sq = $("sq-" + name);
    sq.textContent = "";
    sq.className = "sq";
    const c = cells[i];
    if (c === "X" || c === "O") {
      const d = document.createElement("div");
      d.className = "disc " + (c === "X" ? "black" : "white");
      sq.appendChild(d);
    }
    if (legal.has(name)) sq.classList.add("legal");
    if (inBook.has(name)) sq.classList.add("book");
    if (name === last) sq.classList.add("last");
    sq.title = legal.has(name) ? `play ${name}` : name;
  }
  for (const f of hooks.boardDrawn) f();
}

function showGhost(move) {
  const sq = $("sq-" + move);
  if (!sq || !state.answer) return;
  const d = document.createElement("div");
  d.className = "disc ghost " + (state.answer.side === "black" ? "black" : "white");
  sq.appendChild(d);
}

// ---- moving through the line ----

// Every move the user makes (a square, a row of the table, the pass button) comes here, so a
// mode that restricts who may move (play against the engine) is asked once, here.
function play(move) {
  if (hooks.mayPlay && !hooks.mayPlay()) return;
  if (state.moves[state.cursor] === move) {
    state.cursor++;
  } else {
    state.moves = state.moves.slice(0, state.cursor).concat([move]);
    state.cursor++;
    state.game = null;
  }
  load();
}

function playSquare(name) {
  if (state.answer && state.answer.legal.includes(name)) play(name);
}

function step(to) {
  const c = Math.max(0, Math.min(state.moves.length, to));
  if (c !== state.cursor) {
    state.cursor = c;
    load();
  }
}

function drawLine() {
  const ol = $("line");
  ol.textContent = "";
  state.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = `${i + 1}.${m === "pa" ? "pass" : m}`;
    if (i >= state.cursor) li.classList.add("future");
    if (i === state.cursor - 1) li.classList.add("current");
    li.addEventListener("click", () => step(i + 1));
    ol.appendChild(li);
  });
  markReviewed();
}

// ---- loading a position ----

async function load() {
  const id = ++state.request;
  drawLine();
  saveHash();
  let a;
  try {
    // A newer position makes the older answer useless: a search for it is stopped.
    if (state.explore) state.explore.abort();
    state.explore = new AbortController();
    const extra = { depth: state.depth, ...state.filters, ratings: state.ratings ? "true" : "" };
    a = await api("explore", params(extra), state.explore.signal);
  } catch (e) {
    if (id !== state.request || e.name === "AbortError") return;
    setStatus(e.message, true);
    clearAnswer();
    // The games list says why too (a bad filter), rather than keep the games of the last one.
    loadGames(id);
    loadHistory(id);
    return;
  }
  if (id !== state.request) return;
  // The server puts back passes the line left out.
  const line = splitLine(a.line);
  if (line.join("") !== state.moves.slice(0, state.cursor).join("")) {
    state.moves = line.concat(state.moves.slice(state.cursor));
    state.cursor = line.length;
    drawLine();
  }
  state.answer = a;
  drawBoard();
  drawStatus(a);
  drawLineLosses(a);
  drawMoves(a);
  drawMoveRatings(a);
  loadGames(id);
  loadHistory(id);
  for (const f of hooks.loaded) f(a);
}

// After a failed request: the move table and the line's losses belonged to the last position
// that loaded, so they are emptied rather than left to pass for this one's.
function clearAnswer() {
  state.answer = null;
  $("moves").querySelector("tbody").textContent = "";
  delete $("moves").dataset.line;
  $("line-loss").hidden = true;
  $("line-loss").textContent = "";
  delete $("line-loss").dataset.line;
}

function drawStatus(a) {
  const side = a.side === "black" ? "Black (X)" : "White (O)";
  let text = `${a.black_discs}–${a.white_discs} · `;
  if (a.game_over) text += "Game over";
  else if (a.must_pass) text += `${side} has no move: pass`;
  else text += `${side} to move`;
  if (state.game) text += ` · game: ${state.game}`;
  setStatus(text, false);
  $("pass").hidden = !a.must_pass;
  $("opening").textContent = a.opening ? a.opening.name : "";
  const s = $("summary");
  if (!a.in_book) s.textContent = a.filtered ? "No game matching the filters reaches this position." : "This position is not in the book.";
  else {
    const k = a.black_wins + a.draws + a.white_wins;
    s.textContent = `${a.games} games · black ${pct(a.black_wins, k).toFixed(1)}% · draw ${pct(a.draws, k).toFixed(1)}% · white ${pct(a.white_wins, k).toFixed(1)}% · average ${fmt(a.average_diff)}` +
      (a.value != null ? ` · value ${valueText(a)} · ${chancesText(a)}` : "");
  }
}

function bars(m) {
  const div = document.createElement("div");
  div.className = "bars";
  const k = (m.black_wins || 0) + (m.draws || 0) + (m.white_wins || 0);
  for (const [cls, n] of [["b", m.black_wins], ["d", m.draws], ["w", m.white_wins]]) {
    const span = document.createElement("span");
    span.className = cls;
    const p = pct(n || 0, k);
    span.style.width = p + "%";
    span.textContent = p >= 18 ? Math.round(p) + "%" : "";
    span.title = `${n || 0} games (${p.toFixed(1)}%)`;
    div.appendChild(span);
  }
  return div;
}

function cell(tr, text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  if (text instanceof Node) td.appendChild(text);
  else td.textContent = text;
  tr.appendChild(td);
  return td;
}

function drawMoves(a) {
  const tbody = $("moves").querySelector("tbody");
  tbody.textContent = "";
  // Which line the table shows (scripts and tests wait on it).
  $("moves").dataset.line = a.line;
  for (const m of a.moves) {
    const tr = document.createElement("tr");
    tr.dataset.move = m.move;
    if (m.best) tr.classList.add("best");
    cell(tr, m.move === "pass" ? "pass" : m.move);
    cell(tr, m.games == null ? `<${a.book_min_games}` : String(m.games), "num games");
    cell(tr, m.share == null ? "–" : m.share.toFixed(1) + "%", "num");
    cell(tr, m.games ? bars(m) : "");
    cell(tr, fmt(m.average_diff), "num");
    const value = cell(tr, valueText(m), "num value");
    if (m.win != null) value.title = `${chancesText(m)}, draw ${chance(m.draw)}, loses ${chance(m.loss)}`;
    cell(tr, m.eval === undefined ? "" : fmt(m.eval), "num eval");
    cell(tr, m.opening || "", "opening");
    tr.addEventListener("mouseenter", () => showGhost(m.move));
    tr.addEventListener("mouseleave", drawBoard);
    tr.addEventListener("click", () => (m.move === "pass" ? play("pa") : playSquare(m.move)));
    tbody.appendChild(tr);
  }
  if (!a.moves.length) {
    const tr = document.createElement("tr");
    cell(tr, a.game_over ? "The game is over." : "No move in the book.").colSpan = 10;
    tbody.appendChild(tr);
  }
  // A symmetric position lists one move of each equivalent set, as the command line does.
  $("move-notes").textContent = a.moves
    .filter((m) => m.equivalent && m.equivalent.length)
    .map((m) => `${m.move} stands for ${listWords(m.equivalent)} too: the position is symmetric.`)
    .join(" ");
}

// "d3", "d3 and c4", "d3, c4 and e6".
function listWords(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

async function loadGames(id) {
  const tbody = $("games").querySelector("tbody");
  let g;
  try {
    g = await api("games", params({ limit: 30, ...state.filters, order: state.order }));
  } catch (e) {
    if (id === state.request) {
      tbody.textContent = "";
      $("games-summary").textContent = e.message;
    }
    return;
  }
  if (id !== state.request) return;
  tbody.textContent = "";
  $("games").dataset.line = params().toString();
  $("games-summary").textContent = g.total === 0 ? "No game reaches this position." :
    `${g.total} game${g.total === 1 ? "" : "s"} reach this position` + listedText(g.games.length, g.total) + ". Click one to step through it.";
  for (const row of g.games) {
    const tr = document.createElement("tr");
    cell(tr, row.year == null ? "?" : String(row.year));
    cell(tr, playerCell(row.black, row.black_rating));
    cell(tr, playerCell(row.white, row.white_rating));
    cell(tr, row.result == null ? "?" : (row.result > 0 ? "+" : "") + row.result, "num");
    cell(tr, row.next || "end");
    cell(tr, row.event || "");
    tr.addEventListener("click", () => {
      state.start = null;
      state.moves = splitLine(row.moves_here);
      state.cursor = Math.min(row.ply, state.moves.length);
      state.game = `${row.black || "?"} – ${row.white || "?"}${row.year ? ", " + row.year : ""}`;
      load();
    });
    tbody.appendChild(tr);
  }
}

// ---- reviewing a game ----

// The review on the page: the line it scored (start and moves) and the server's answer.
const review = { start: null, moves: "", answer: null, abort: null };

function setReviewStatus(text, error) {
  const s = $("review-status");
  s.textContent = text;
  s.classList.toggle("error", !!error);
}

async function postJson(path, body, signal) {
  const r = await fetch(`/api/v1/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  const answer = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(answer.error || `HTTP ${r.status}`);
  return answer;
}

// Reviews the moves typed in the review box (they become the board's line first), else the
// whole line on the board. A new review, or Stop, abandons the one under way: the server
// stops its search when the request is dropped.
async function startReview() {
  const text = $("review-text").value.trim();
  if (text) {
    paste(text);
    $("review-text").value = "";
  }
  const moves = state.moves.join("");
  if (!moves) {
    setReviewStatus("Play or paste a game first: the review scores each of its moves.", true);
    return;
  }
  if (review.abort) review.abort.abort();
  const ctl = new AbortController();
  review.abort = ctl;
  const body = { moves };
  if (state.start) body.position = state.start;
  if (state.book) body.book = state.book;
  const depth = $("review-depth").value;
  if (depth) body.depth = Number(depth);
  const start = state.start;
  $("review-stop").hidden = false;
  setReviewStatus(`Reviewing ${state.moves.length} moves at depth ${depth || "default"}…`, false);
  try {
    const a = await postJson("review", body, ctl.signal);
    if (review.abort !== ctl) return;
    review.start = start;
    review.moves = a.game.moves;
    review.answer = a;
    drawReview(a);
  } catch (e) {
    if (review.abort !== ctl) return;
    setReviewStatus(e.name === "AbortError" ? "Review stopped." : e.message, e.name !== "AbortError");
  } finally {
    if (review.abort === ctl) {
      review.abort = null;
      $("review-stop").hidden = true;
    }
  }
}

function stopReview() {
  if (review.abort) review.abort.abort();
}

// A score for its player: whole discs when exact.
function discs(x, exact) {
  return x === null || x === undefined ? "–" : fmt(x, exact ? 0 : 2);
}

function drawReview(a) {
  const players = $("review-players");
  const ptbody = players.querySelector("tbody");
  ptbody.textContent = "";
  for (const [side, p] of [["Black", a.black], ["White", a.white]]) {
    const tr = document.createElement("tr");
    tr.dataset.side = side.toLowerCase();
    cell(tr, p.name ? `${side} (${p.name})` : side);
    cell(tr, String(p.moves), "num");
    cell(tr, p.average_loss.toFixed(2), "num avg-loss");
    cell(tr, p.total_loss.toFixed(2), "num");
    cell(tr, String(p.inaccuracies), "num");
    cell(tr, String(p.mistakes), "num");
    cell(tr, String(p.blunders), "num");
    cell(tr, String(p.in_book), "num");
    ptbody.appendChild(tr);
  }
  players.hidden = false;
  const table = $("review");
  const tbody = table.querySelector("tbody");
  tbody.textContent = "";
  for (const m of a.moves) {
    const v = m.verdict;
    const exact = v && v.kind === "exact";
    const tr = document.createElement("tr");
    tr.dataset.ply = m.ply;
    if (v && v.mark) tr.classList.add("mark-" + v.mark);
    cell(tr, String(m.ply), "num");
    cell(tr, m.move, "move");
    cell(tr, m.side, "side");
    cell(tr, v ? discs(v.played, exact) : "–", "num played");
    cell(tr, v ? v.best_move : "–", "best");
    cell(tr, v ? discs(v.best, exact) : "–", "num");
    cell(tr, v ? (exact ? String(v.loss) : v.loss.toFixed(2)) : "–", "num loss");
    cell(tr, v && v.mark ? v.mark : "", "mark");
    cell(tr, m.book ? String(m.book.games) : "", "num");
    tr.title = "Show the position this move was played from";
    tr.addEventListener("click", () => showReviewed(m.ply));
    tbody.appendChild(tr);
  }
  table.hidden = false;
  drawReviewGraph(a);
  // Which game the table shows (scripts and tests wait on it).
  table.dataset.moves = a.game.moves;
  const s = a.settings;
  let text = `${a.moves.length} plies reviewed at ${s.depth != null ? "depth " + s.depth : s.time + " s a move"}`;
  if (a.opening) text += ` · ${a.opening.name}`;
  if (a.book_used) text += a.left_book_at ? ` · left the book at move ${a.left_book_at}` : " · in the book throughout";
  if (a.final_black != null) text += ` · final score ${fmt(a.final_black, 0)} for black`;
  text += ". Losses are in discs against the engine's best move; click a move to see the position it was played from, or a point of the graph to see the position after it.";
  setReviewStatus(text, false);
  markReviewed();
}

// The board at the position the reviewed move `ply` was played from, in the reviewed game.
function showReviewed(ply) {
  state.start = review.start;
  state.moves = splitLine(review.moves);
  state.cursor = ply - 1;
  state.game = null;
  load();
}

// Highlights the review's row of the move about to be played on the board, when the board
// shows the reviewed game.
function markReviewed() {
  const same = review.answer && state.start === review.start &&
    state.moves.join("") === review.moves;
  for (const tr of $("review").querySelectorAll("tbody tr")) {
    tr.classList.toggle("current", same && Number(tr.dataset.ply) === state.cursor + 1);
  }
  markReviewGraph(same ? state.cursor : null);
}

// ---- pasting, the URL, the keyboard ----

function paste(text) {
  const t = text.trim();
  const compact = t.replace(/\s+/g, "");
  if (/^[XxOo\-\.\*]{64}[XxOoBbWw]/.test(compact)) {
    state.start = compact.slice(0, 64) + " " + compact[64].toUpperCase().replace("B", "X").replace("W", "O");
    state.moves = [];
  } else {
    state.start = null;
    const squares = t.toLowerCase().match(/pa|pass|[a-h][1-8]/g) || [];
    state.moves = squares.map((s) => (s === "pass" ? "pa" : s));
  }
  state.cursor = state.moves.length;
  state.game = null;
  load();
}

function saveHash() {
  const p = new URLSearchParams();
  if (state.book) p.set("book", state.book);
  if (state.start) p.set("position", state.start);
  if (state.moves.length) p.set("moves", state.moves.slice(0, state.cursor).join(""));
  saveOptions(p);
  const h = p.toString();
  history.replaceState(null, "", h ? "#" + h : location.pathname);
}

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  state.book = p.get("book") || null;
  state.start = p.get("position") || null;
  state.moves = splitLine(p.get("moves") || "");
  state.cursor = state.moves.length;
  readOptions(p);
}

document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  const keys = { ArrowLeft: state.cursor - 1, ArrowRight: state.cursor + 1, Home: 0, End: state.moves.length };
  if (e.key in keys) {
    e.preventDefault();
    step(keys[e.key]);
  }
});

$("first").addEventListener("click", () => step(0));
$("back").addEventListener("click", () => step(state.cursor - 1));
$("forward").addEventListener("click", () => step(state.cursor + 1));
$("last").addEventListener("click", () => step(state.moves.length));
$("flip").addEventListener("click", () => {
  state.flipped = !state.flipped;
  buildBoard();
  drawBoard();
});
$("pass").addEventListener("click", () => play("pa"));
$("paste").addEventListener("submit", (e) => {
  e.preventDefault();
  paste($("paste-text").value);
});
$("depth").addEventListener("change", (e) => {
  state.depth = e.target.value;
  load();
});
$("review-form").addEventListener("submit", (e) => {
  e.preventDefault();
  startReview();
});
$("review-stop").addEventListener("click", stopReview);
$("filters").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = {};
  for (const [k, v] of new FormData(e.target)) if (v.trim()) f[k] = v.trim();
  if (!f.player) delete f.color;
  state.filters = f;
  load();
});

// How the book's values were searched, as `othbook info` says it.
function evaluationText(e) {
  const width = e.selectivity >= 100 ? "full width" : `selectivity ${e.selectivity}%`;
  return `leaf depth ${e.depth}, ${width}, exact from ${e.exact_from} empties`;
}

// The book's name, size and values in the header; the info answer.
async function showBook() {
  const p = new URLSearchParams();
  if (state.book) p.set("book", state.book);
  const info = await api("info", p);
  $("book-info").textContent = `${info.book} · ${info.games.toLocaleString()} games · ${info.positions.toLocaleString()} positions` +
    (info.evaluation ? ` · values: ${evaluationText(info.evaluation)}` : "");
  return info;
}

// The book selector, shown when the server has several books: switching keeps the line and
// goes in the address (shareable); a book that did not open is listed, disabled.
function pickBooks(books) {
  const sel = $("book");
  if (books.length < 2) return;
  for (const b of books) {
    const o = document.createElement("option");
    o.value = b.name;
    o.textContent = b.available ? b.name : `${b.name} (${b.error})`;
    o.disabled = !b.available;
    o.selected = state.book ? b.name === state.book : b.default;
    sel.appendChild(o);
  }
  $("book-pick").hidden = false;
  sel.addEventListener("change", async () => {
    const first = books.find((b) => b.default);
    state.book = first && sel.value === first.name ? null : sel.value;
    $("notice").hidden = true;
    state.game = null;
    load();
    await showBook().catch((e) => setStatus(e.message, true));
  });
}

// The book the address names, or the server's default with a notice when the server does
// not serve that one (removed, renamed, or it failed to open): a stale link still opens.
async function showBookOrDefault() {
  try {
    return await showBook();
  } catch (e) {
    if (!state.book) throw e;
    const asked = state.book;
    state.book = null;
    const info = await showBook();
    const n = $("notice");
    n.textContent = `The book "${asked}" is not available on this server (${e.message}); showing the default book, ${info.book}, instead.`;
    n.hidden = false;
    return info;
  }
}

async function init() {
  buildBoard();
  readHash();
  try {
    const info = await showBookOrDefault();
    pickBooks(info.books || []);
    for (const f of hooks.info) f(info);
    const sel = $("depth");
    for (const d of [4, 8, 12, 16, 20]) {
      if (d > info.max_depth) break;
      const o = document.createElement("option");
      o.value = d;
      o.textContent = `depth ${d}`;
      sel.appendChild(o);
    }
    // The review searches every position of the game: shallower choices, 6 by default.
    const rsel = $("review-depth");
    for (const d of [2, 4, 6, 8, 10, 12, 14]) {
      if (d > info.max_depth) break;
      const o = document.createElement("option");
      o.value = d;
      o.textContent = String(d);
      o.selected = d === Math.min(6, info.max_depth);
      rsel.appendChild(o);
    }
  } catch (e) {
    setStatus(e.message, true);
  }
  load();
}

init();
