// Playing against the engine: the page keeps the game as its line (so the board, the move
// table, the games and the review all follow it); on the engine's turn it asks
// POST /api/v1/play for a move. Take-back, switching sides, an analysis of every legal move
// on the board (the explorer's engine column), saving as PGN or GGF through the server's
// writers, and the review of the game.
"use strict";

const playing = {
  on: false,
  human: "black",   // the colour the user plays
  ask: null,        // aborts the engine's request under way (the server stops its search)
  saved: null,      // the last game saved: { format, text }
  maxDepth: 1,
  maxTimeMs: 1000,
};

function setPlayStatus(text, error) {
  const s = $("play-status");
  s.textContent = text;
  s.classList.toggle("error", !!error);
}

// The colour to move after `n` plies of the line (passes are plies).
function moverAt(n) {
  const first = state.start && state.start.trim().endsWith("O") ? "white" : "black";
  const other = first === "black" ? "white" : "black";
  return n % 2 === 0 ? first : other;
}

// The strength choices, within the server's caps.
function fillStrength(info) {
  playing.maxDepth = info.max_depth;
  playing.maxTimeMs = info.play_max_time_ms;
  const sel = $("play-strength");
  sel.textContent = "";
  const add = (value, text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    sel.appendChild(o);
  };
  for (const d of [1, 2, 4, 6, 8, 10, 12, 14, 16, 20]) if (d <= info.max_depth) add(`depth:${d}`, `depth ${d}`);
  for (const ms of [100, 500, 1000, 2000, 5000, 10000]) if (ms <= info.play_max_time_ms) add(`time:${ms}`, `${ms / 1000} s a move`);
  sel.value = info.max_depth >= 4 ? "depth:4" : "depth:1";
}

function strength() {
  const [kind, n] = $("play-strength").value.split(":");
  return kind === "time" ? { time_ms: Number(n) } : { depth: Number(n) };
}

function engineName() {
  const [kind, n] = $("play-strength").value.split(":");
  return `othbook engine (${kind === "time" ? n / 1000 + " s a move" : "depth " + n})`;
}

function stopAsking() {
  if (playing.ask) playing.ask.abort();
  playing.ask = null;
}

// After each position loads: the engine moves on its turn, at the end of the line.
async function engineTurn(a) {
  if (!playing.on) return;
  if (a.game_over) {
    const d = a.black_discs - a.white_discs;
    const mine = playing.human === "black" ? d : -d;
    setPlayStatus(`Game over, ${a.black_discs}–${a.white_discs}: ${mine > 0 ? "you win" : mine < 0 ? "the engine wins" : "a draw"}.`, false);
    $("play-panel").dataset.over = "true";
    return;
  }
  $("play-panel").dataset.over = "false";
  if (state.cursor !== state.moves.length || a.side === playing.human) {
    if (a.side === playing.human) setPlayStatus(a.must_pass ? "You have no move: pass." : `Your move (${playing.human}).`, false);
    else setPlayStatus("The engine is to move here: step on to the end of the game, or take back to play on from your own move.", false);
    return;
  }
  stopAsking();
  const ctl = new AbortController();
  playing.ask = ctl;
  const line = state.moves.join("");
  const body = { moves: line, strength: strength(), use_book: $("play-book").checked };
  const r = Number($("play-random").value);
  if (r > 0) body.randomness = r;
  if (state.start) body.position = state.start;
  if (state.book) body.book = state.book;
  setPlayStatus("The engine is thinking…", false);
  try {
    const m = await postJson("play", body, ctl.signal);
    if (playing.ask !== ctl || state.moves.join("") !== line) return;
    playing.ask = null;
    const how = m.from_book ? "from the book" : `depth ${m.depth}${m.score_kind === "exact" ? ", exact" : ""}`;
    setPlayStatus(`The engine played ${m.move} (${how}, ${fmt(m.score)} for it).`, false);
    state.moves = splitLine(m.line);
    state.cursor = state.moves.length;
    state.game = null;
    load();
  } catch (e) {
    if (playing.ask === ctl) {
      playing.ask = null;
      if (e.name !== "AbortError") setPlayStatus(e.message, true);
    }
  }
}

// Clicks on the board and the move table play only on the user's turn, also in a position
// stepped back to (a move there starts the game again from it; the engine's moves are its
// own).
function userMayPlay() {
  return !playing.on || !state.answer || state.answer.side === playing.human;
}

// The analysis on the board: each legal move's engine score for the side to move.
function drawAnalysis() {
  const a = state.answer;
  if (!a || !playing.on || !$("play-analysis").checked) return;
  const sign = a.side === "black" ? 1 : -1;
  const scored = a.moves.filter((m) => m.eval != null);
  const best = Math.max(...scored.map((m) => sign * m.eval));
  for (const m of scored) {
    for (const name of [m.move].concat(m.equivalent || [])) {
      const sq = $("sq-" + name);
      if (!sq) continue;
      const v = sign * m.eval;
      const label = document.createElement("span");
      label.className = "eval-label" + (v === best ? " best" : "");
      label.textContent = Math.abs(v) >= 10 ? Math.round(v) : v.toFixed(1);
      sq.appendChild(label);
      sq.classList.add("scored");
      sq.title = `play ${name}: ${fmt(v)} for ${a.side}`;
    }
  }
}

function setAnalysis(on) {
  const sel = $("depth");
  if (on && !state.depth) state.depth = sel.options.length > 1 ? sel.options[1].value : "";
  if (!on) state.depth = "";
  sel.value = state.depth;
  load();
}

// Back to the last position where the user was to move before their last move.
function takeBack() {
  stopAsking();
  let n = state.cursor;
  do n--; while (n > 0 && (moverAt(n) !== playing.human || state.moves[n] === "pa"));
  state.moves = state.moves.slice(0, Math.max(0, n));
  state.cursor = state.moves.length;
  state.game = null;
  load();
}

function newGame() {
  stopAsking();
  state.start = null;
  state.moves = [];
  state.cursor = 0;
  state.game = null;
  load();
}

function startPlaying(on) {
  playing.on = on;
  $("play-options").hidden = !on;
  stopAsking();
  if (on && state.answer) engineTurn(state.answer);
  else setPlayStatus("", false);
  drawBoard();
}

function switchSides() {
  playing.human = playing.human === "black" ? "white" : "black";
  $("play-colour").value = playing.human;
  if (state.answer) engineTurn(state.answer);
}

// The game so far as PGN or GGF (the server's writers), downloaded.
async function saveGame(format) {
  const body = { moves: state.moves.slice(0, state.cursor).join(""), format };
  if (state.start) body.position = state.start;
  const you = "You", engine = engineName();
  body.black = playing.human === "black" ? you : engine;
  body.white = playing.human === "black" ? engine : you;
  try {
    const r = await fetch("/api/v1/transcript", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error((JSON.parse(text).error) || `HTTP ${r.status}`);
    playing.saved = { format, text };
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    a.download = `othbook-game.${format}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    setPlayStatus(`Saved as ${a.download}.`, false);
  } catch (e) {
    setPlayStatus(e.message, true);
  }
}

// The review of the whole game, at once, in the review view.
function reviewGame() {
  state.cursor = state.moves.length;
  $("review-text").value = "";
  startReview();
  $("review-head").scrollIntoView();
}

hooks.loaded.push(engineTurn);
hooks.boardDrawn.push(drawAnalysis);
hooks.mayPlay = userMayPlay;
hooks.info.push(fillStrength);

$("play-on").addEventListener("change", (e) => startPlaying(e.target.checked));
$("play-colour").addEventListener("change", (e) => {
  playing.human = e.target.value;
  if (state.answer) engineTurn(state.answer);
});
$("play-new").addEventListener("click", newGame);
$("play-undo").addEventListener("click", takeBack);
$("play-switch").addEventListener("click", switchSides);
$("play-analysis").addEventListener("change", (e) => setAnalysis(e.target.checked));
$("play-pgn").addEventListener("click", () => saveGame("pgn"));
$("play-ggf").addEventListener("click", () => saveGame("ggf"));
$("play-review").addEventListener("click", reviewGame);
