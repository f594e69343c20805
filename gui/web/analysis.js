// The page's analysis helpers, as pure functions (no DOM, tested by tests/analysis.test.mjs):
// the marks of whole-game analysis and their symbols, the per-side summary, the graph's marks and
// hover texts, a typed move read against the legal moves, and the keyboard cursor's steps.
// The server decides the marks (gui/move_analysis.hpp): a move's loss of expected score of 0.05,
// 0.10 and 0.15 or more is an inaccuracy, a mistake, a blunder (lichess's 0.1 / 0.2 / 0.3 of
// its -1..1 win chances), and a move that throws away a table win or draw is always a blunder.

import { SIZE, parseMove, parseSquare, sidesOf, squareName } from './notation.js';
import { formatScore, moverOf, scoreForX } from './score.js';
import { playerName, sideName } from './state.js';

// The marks as the move list and the PGN's NAGs write them.
export const MARKS = {
  inaccuracy: { symbol: '?!', nag: 6, label: 'Inaccuracy' },
  mistake: { symbol: '?', nag: 2, label: 'Mistake' },
  blunder: { symbol: '??', nag: 4, label: 'Blunder' },
};

export function markSymbol(mark) {
  return MARKS[mark]?.symbol ?? '';
}

// The analysed value as text, in X's point of view: "+35", "#-3", or the tables' "X wins in 5".
export function analysisValueText(state, index) {
  const move = state.moves[index];
  const analysis = move?.analysis;
  if (!analysis) return '';
  const mover = moverOf(state, index);
  if (analysis.tb) {
    const tb = analysis.tb;
    if (tb.value === 'draw') return 'draw (tables)';
    const winner = tb.value === 'win' ? mover : otherSide(state, mover);
    const distance = tb.distance ? ` in ${tb.distance}` : '';
    return `${sideName(winner)} wins${distance} (${tb.distance === 0 ? 'game over' : 'tables'})`;
  }
  return formatScore(scoreForX(analysis.score, mover));
}

function otherSide(state, side) {
  if (state.variant === '4p') return side === '1' || side === '3' ? '2' : '1';
  return side === 'x' ? 'o' : 'x';
}

// The text a graph point or a move button shows on hover: "12. b1e1?? blunder: +35 (best a1a5)".
export function analysisHoverText(state, index) {
  const move = state.moves[index];
  if (!move?.analysis) return '';
  const analysis = move.analysis;
  const mark = analysis.mark ? ` ${MARKS[analysis.mark]?.label.toLowerCase() ?? analysis.mark}` : '';
  const best = analysis.best && analysis.best !== move.move ? `, best ${analysis.best}` : '';
  return `${index + 1}. ${move.move}${markSymbol(analysis.mark)}${mark}: ${analysisValueText(state, index)}${best}`;
}

// A graph point's hover text: the analysed one when the move has it, else the score its engine
// reported, in X's point of view.
export function graphHoverText(state, index) {
  const move = state.moves[index];
  if (!move) return '';
  if (move.analysis) return analysisHoverText(state, index);
  const score = scoreForX(move.score, moverOf(state, index));
  return `${index + 1}. ${move.move}: ${formatScore(score)}`;
}

// After a marked move, as lichess shows it: an arrow of the move that was best instead (in the
// position before it), or none.
export function bestMoveArrows(state) {
  const move = state?.ply > 0 ? state.moves[state.ply - 1] : null;
  const analysis = move?.analysis;
  if (!analysis?.mark || !analysis.best || analysis.best === move.move) return [];
  const best = parseMove(analysis.best);
  return best && !best.pass ? [{ from: best.from, to: best.to, weight: 1 }] : [];
}

// Per side (two players) or seat (four): who played, how many inaccuracies, mistakes and
// blunders, the analysed moves and their average centipawn loss (null before any).
export function analysisSummary(state) {
  const rows = sidesOf(state.variant).map((side, index) => ({
    side,
    name: `${sideName(side)} — ${playerName(state.players[index] ?? '')}`,
    inaccuracy: 0,
    mistake: 0,
    blunder: 0,
    moves: 0,
    averageCpLoss: null,
  }));
  const losses = rows.map(() => 0);
  state.moves.forEach((move, index) => {
    if (!move.analysis) return;
    const row = rows.findIndex((entry) => entry.side === moverOf(state, index));
    if (row < 0) return;
    rows[row].moves += 1;
    losses[row] += move.analysis.cp_loss ?? 0;
    if (move.analysis.mark in MARKS) rows[row][move.analysis.mark] += 1;
  });
  rows.forEach((row, index) => {
    if (row.moves > 0) row.averageCpLoss = Math.round(losses[index] / row.moves);
  });
  return rows;
}

// The engine's time a position from the seconds field: 1 s when it is not a positive number,
// within the server's 10 ms .. 60 s.
export function movetimeMs(text) {
  const seconds = Number(text);
  const ms = Math.round((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
  return Math.max(10, Math.min(60000, ms));
}

// The move field's text read against the shown position's legal moves: {move} when it names
// exactly one ("b1e1", "B1-E1", "b1 e1", "pass"; four players: "b1e1X" with its point, or
// "b1e1" when only one point is legal), else {error}.
export function parseTypedMove(text, legal) {
  const raw = String(text ?? '').trim();
  if (raw === '') return { error: 'Type a move such as b1e1.' };
  if (/^(pass|0000|--)$/i.test(raw)) {
    return legal.some((move) => move.move === '0000')
      ? { move: '0000' } : { error: 'A pass is not legal here.' };
  }
  const match = /^([a-e])\s*([1-5])\s*[-\s]?\s*([a-e])\s*([1-5])\s*([xXoO])?$/i.exec(raw);
  if (!match) return { error: `“${raw}” is not a move: type its two squares, such as b1e1.` };
  const from = `${match[1].toLowerCase()}${match[2]}`;
  const to = `${match[3].toLowerCase()}${match[4]}`;
  const point = match[5] ?? null;
  const candidates = legal.filter((move) => move.from === from && move.to === to
    && (point === null || move.point === point));
  if (candidates.length === 1) return { move: candidates[0].move };
  if (candidates.length > 1) {
    return { error: `Say where the cube points: ${candidates.map((move) => move.move).join(' or ')}.` };
  }
  return { error: `${from}${to}${point ?? ''} is not a legal move here.` };
}

// The square the keyboard cursor goes to from `square` with an arrow key, as the board is seen
// (flipped or not); it stays at the edge. Without a square it starts in the middle.
export function cursorStep(square, key, flipped = false) {
  const at = parseSquare(square ?? '') ?? { file: 2, rank: 2 };
  if (!square) return squareName(at.file, at.rank);
  const sign = flipped ? -1 : 1;
  const delta = {
    ArrowLeft: [-sign, 0], ArrowRight: [sign, 0], ArrowUp: [0, sign], ArrowDown: [0, -sign],
  }[key];
  if (!delta) return square;
  const file = Math.max(0, Math.min(SIZE - 1, at.file + delta[0]));
  const rank = Math.max(0, Math.min(SIZE - 1, at.rank + delta[1]));
  return squareName(file, rank);
}
