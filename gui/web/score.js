// Engine scores as the page shows them. An engine reports a score from the point of view of the
// side (or seat) it moves for; the graph, the bar and the analysis lines all show X's (team A's)
// point of view so that "up" means the same thing on every ply.

import { sideOf, teamOfSide } from './notation.js';

// The engine's evaluation stays within a few hundred for won-looking positions; the graph is
// clamped here and a mate sits on its edge.
export const GRAPH_LIMIT = 500;
// Scale of the evaluation bar's curve: a score of BAR_SCALE fills about 3/4 of it for the leader.
export const BAR_SCALE = 200;

// Turns a score ({cp} or {mate}) of the side `side` into X's point of view.
export function scoreForX(score, side) {
  if (!score) return null;
  const sign = teamOfSide(side) === 'o' ? -1 : 1;
  if (typeof score.mate === 'number') return { mate: sign * score.mate };
  if (typeof score.cp === 'number') return { cp: sign * score.cp };
  return null;
}

// Whether a mate score is good for the side whose view it is in. "mate 0" cannot come from a
// search that has a move; read it as lost for the side to move.
function mateSign(mate) {
  return mate > 0 ? 1 : -1;
}

// A score as one number for the graph: centipawns clamped to +-limit, mates on the edge.
export function scoreValue(score, limit = GRAPH_LIMIT) {
  if (!score) return null;
  if (typeof score.mate === 'number') return mateSign(score.mate) * limit;
  if (typeof score.cp === 'number') return Math.max(-limit, Math.min(limit, score.cp));
  return null;
}

// The share of the evaluation bar that is X's (0..1); 0.5 for an even or unknown score.
export function barFraction(score) {
  if (!score) return 0.5;
  if (typeof score.mate === 'number') return score.mate > 0 ? 1 : 0;
  if (typeof score.cp !== 'number') return 0.5;
  // A logistic curve: small scores move the bar visibly, large ones never quite fill it.
  return 1 / (1 + Math.exp(-score.cp * Math.log(3) / BAR_SCALE));
}

// A win the engine proves by reaching a won position of the endgame tables p plies ahead, whose
// distance from there it does not know, comes as cp 20000 - p (docs/spec.md, section 6); a loss
// as its negative. Every evaluation stays far below.
const TABLE_WIN_CP = 20000;
const TABLE_WIN_BOUND = TABLE_WIN_CP - 256;

// "+35", "-12", "0", "#3", "#-2" (mate N: the side to move wins with its N-th move), "TB win",
// "TB loss".
export function formatScore(score) {
  if (!score) return '';
  if (typeof score.mate === 'number') return `#${score.mate}`;
  if (typeof score.cp !== 'number') return '';
  if (score.cp >= TABLE_WIN_BOUND) return 'TB win';
  if (score.cp <= -TABLE_WIN_BOUND) return 'TB loss';
  return score.cp > 0 ? `+${score.cp}` : String(score.cp);
}

// The side to move before move `index` (0-based) of a state: the one that made that move.
export function moverOf(state, index) {
  const before = index === 0 ? state.start : state.moves[index - 1]?.position;
  return sideOf(before);
}

// A move's whole-game analysis value (the position after it) as a score of the mover's point of
// view: the engine's, or a table value as a mate-like edge ({mate: N} for a win in N plies,
// {mate: -N} for a loss) and 0 for a draw.
export function analysisScore(analysis) {
  if (!analysis) return null;
  if (analysis.tb) {
    if (analysis.tb.value === 'win') return { mate: Math.max(1, analysis.tb.distance ?? 1) };
    if (analysis.tb.value === 'loss') return { mate: -Math.max(1, analysis.tb.distance ?? 1) };
    return { cp: 0 };
  }
  return analysis.score ?? null;
}

// The graph's points: one per move that carries a score, {ply, value, mark} with ply = the ply
// after the move, value in X's point of view, clamped, and mark the whole-game analysis's mark
// (only when it has one). A move's analysed value is preferred to the score its engine reported.
export function graphPoints(state, limit = GRAPH_LIMIT) {
  const points = [];
  (state?.moves ?? []).forEach((move, index) => {
    const score = analysisScore(move.analysis) ?? move.score;
    const value = scoreValue(scoreForX(score, moverOf(state, index)), limit);
    const mark = move.analysis?.mark ?? null;
    if (value !== null) points.push(mark ? { ply: index + 1, value, mark } : { ply: index + 1, value });
  });
  return points;
}

// A bound as reported by the engine, turned with the score: a lower bound for the side to move
// is an upper bound for the other side.
export function boundForX(bound, side) {
  if (bound !== 'lowerbound' && bound !== 'upperbound') return null;
  if (teamOfSide(side) !== 'o') return bound;
  return bound === 'lowerbound' ? 'upperbound' : 'lowerbound';
}

// Big node counts and rates in a short form: 950, 12.3k, 4.56M.
export function formatCount(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  if (n < 1e4) return String(n);
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e5 ? 1 : 0)}k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e8 ? 2 : 0)}M`;
  return `${(n / 1e9).toFixed(2)}G`;
}
