// othbook explorer: the line's accumulated loss against the book's values (the explore
// answer's `line_losses`, `book loss` of the command line), as Egaroucid shows a game's
// per-move and cumulative error: each side's total under the board, each move's loss on the
// line.
"use strict";

// A loss in discs as shown: "0", "−2", "−1.25".
function lossText(x) {
  const n = Number(x.toFixed(2));
  return n === 0 ? "0" : "\u2212" + String(n);
}

// The totals under the board and each move's loss on the line (`a`: the explore answer).
function drawLineLosses(a) {
  const box = $("line-loss");
  const l = a.line_losses;
  box.dataset.line = a.line;
  if (!l || !l.moves.length) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  let text = `Loss against the book's best: black ${lossText(l.black_loss)}, white ${lossText(l.white_loss)}`;
  if (l.unknown) text += ` (${l.unknown} move${l.unknown === 1 ? "" : "s"} past the book's values not counted)`;
  box.textContent = text;
  box.hidden = false;
  const items = $("line").querySelectorAll("li");
  for (const m of l.moves) {
    const li = items[m.ply - 1];
    if (!li || m.loss == null) continue;
    li.title = m.loss > 0
      ? `${m.side} lost ${m.loss} against the book's best, ${m.best} (total ${m.side === "black" ? m.black_loss : m.white_loss})`
      : `the book's best (${m.side} total ${m.side === "black" ? m.black_loss : m.white_loss})`;
    if (m.loss > 0) {
      const s = document.createElement("span");
      s.className = "loss";
      s.textContent = lossText(m.loss);
      li.appendChild(s);
    }
  }
}
