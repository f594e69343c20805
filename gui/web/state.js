// What the panels read from the server's messages (a `state`, the `info` lines of a search), as
// pure functions: no DOM, no connection, so that node's test runner can check them
// (tests/pure.test.mjs). The panels draw what these return.

import {
  parseMove, parsePosition, seatLabel, sideOf, sidesOf, slideSources, squareIndex, teamOfSide,
} from './notation.js';
import { boundForX, formatCount, formatScore, moverOf, scoreForX } from './score.js';

// A state with every list present, so that the drawing code need not guard each field.
export function completeState(message) {
  return {
    ...message,
    players: message.players ?? [],
    moves: message.moves ?? [],
    legal: message.legal ?? [],
    ply: message.ply ?? 0,
    start: message.start ?? message.position,
    analysis: message.analysis ?? { on: false },
  };
}

// Whether `state` shows another position than `previous` (or there was none).
export function positionChanged(previous, state) {
  return !previous || previous.position !== state.position || previous.ply !== state.ply;
}

// Whether `state` is another game than `previous`: other variant, start, clock or players.
export function gameChanged(previous, state) {
  if (!previous) return true;
  return previous.variant !== state.variant || previous.start !== state.start
    || previous.time !== state.time || previous.players.join() !== state.players.join();
}

// Another game, or the same one started afresh (its moves gone): the engines' lines go.
export function freshGame(previous, state) {
  return gameChanged(previous, state)
    || (previous.moves.length > 0 && state.moves.length === 0 && state.ply === 0);
}

// The position string after `ply` moves of the state's game.
export function positionAtPly(state, ply) {
  if (ply <= 0) return state.start;
  return state.moves[ply - 1]?.position ?? null;
}

export function sideName(side) {
  if (side === 'x') return 'X';
  if (side === 'o') return 'O';
  if (/^[1-4]$/.test(side ?? '')) return `Seat ${side} (${seatLabel(side)}, ${teamOfSide(side).toUpperCase()})`;
  return side ?? '';
}

export function playerName(player) {
  return player === 'human' ? 'Person' : player;
}

// The index of a side or seat in `players`, `clock.remaining_ms`: 2p x=0, o=1; 4p seat n = n-1.
export function sideIndex(state, side) {
  return sidesOf(state.variant).indexOf(side);
}

export function isForcedPass(state) {
  return state.legal.length > 0 && state.legal.every((move) => move.move === '0000');
}

// The takeable squares: the from-squares of the legal moves, when a click may move now.
export function takeableSquares(state) {
  if (!state?.human_to_move) return new Set();
  return new Set(state.legal.filter((move) => move.from).map((move) => move.from));
}

// ---------------------------------------------------------------- endgame tables

// The exact values of the legal moves by move text, when the tables answered.
export function tbMoves(state) {
  return new Map((state?.tb?.moves ?? []).map((entry) => [entry.move, entry]));
}

// Of several table entries (moves that differ only in their point), the one best for the mover:
// the fastest win, else a draw, else the slowest loss.
export function bestTbEntry(entries) {
  const rank = (entry) => {
    if (entry.value === 'win') return 2000 - (entry.distance ?? 0);
    if (entry.value === 'draw') return 1000;
    return entry.distance ?? 0;
  };
  return entries.reduce((best, entry) => (best === null || rank(entry) > rank(best) ? entry : best), null);
}

export function tbLabel(entry) {
  if (!entry) return null;
  if (entry.value === 'draw') return '=';
  const letter = entry.value === 'win' ? 'W' : 'L';
  return entry.distance === null || entry.distance === undefined ? letter : `${letter}${entry.distance}`;
}

// The table's moves as the list shows them: the fastest win first, then draws, then the slowest
// loss first.
export function sortedTbMoves(tb) {
  const order = (entry) => (entry.value === 'win' ? (entry.distance ?? 0)
    : entry.value === 'draw' ? 10000 : 20000 - (entry.distance ?? 0));
  return [...(tb?.moves ?? [])].sort((a, b) => order(a) - order(b));
}

// "X to move: win in 12 plies".
export function tbValueText(state) {
  const tb = state.tb;
  const distance = tb.value === 'draw' || tb.distance === null || tb.distance === undefined
    ? '' : ` in ${tb.distance} ${tb.distance === 1 ? 'ply' : 'plies'}`;
  return `${sideName(state.to_move)} to move: ${tb.value}${distance}`;
}

// ---------------------------------------------------------------- the board

// The legal ends of the cube on `from`: square -> {value, label} of the best table value of the
// moves that end there (both null without the tables).
export function targetsOf(state, from) {
  const targets = new Map();
  if (!from) return targets;
  const values = tbMoves(state);
  const byEnd = new Map();
  for (const move of state.legal) {
    if (move.from !== from) continue;
    if (!byEnd.has(move.to)) byEnd.set(move.to, []);
    const entry = values.get(move.move);
    if (entry) byEnd.get(move.to).push(entry);
  }
  for (const [to, entries] of byEnd) {
    const best = entries.length ? bestTbEntry(entries) : null;
    targets.set(to, { value: best?.value ?? null, label: tbLabel(best) });
  }
  return targets;
}

// The first moves of an analysis line's pv, drawn as arrows: the first strongest.
export function arrowsOfLine(line) {
  if (!line?.pv) return [];
  return line.pv.slice(0, 3).map((text, index) => {
    const move = parseMove(text);
    return move && !move.pass ? { from: move.from, to: move.to, weight: index } : null;
  }).filter(Boolean);
}

// One arrow per analysis line: its first move, weighted by the line's rank (0 = the best line,
// drawn strongest). `lines` maps multipv -> line; a line whose first move is a pass, or a move
// that a better line already shows, adds no arrow.
export function arrowsOfLines(lines) {
  const arrows = [];
  const ranks = [...(lines?.keys() ?? [])].sort((a, b) => a - b);
  for (const [rank, multipv] of ranks.entries()) {
    const move = parseMove(lines.get(multipv)?.pv?.[0]);
    if (!move || move.pass) continue;
    if (arrows.some((arrow) => arrow.from === move.from && arrow.to === move.to)) continue;
    arrows.push({ from: move.from, to: move.to, weight: rank });
  }
  return arrows;
}

// The four seats' tags around a four-player board.
export function seatTags(state) {
  return ['1', '2', '3', '4'].map((seat, index) => ({
    seat,
    text: `${seat} · ${seatLabel(seat)} · ${teamOfSide(seat).toUpperCase()} · ${playerName(state.players[index] ?? '')}`,
    toMove: state.to_move === seat && !state.result,
  }));
}

// A move of one ply forward or back along the game that the board can show as a slide: the
// pairs {to, from} of cubes to glide, or null. Checked against both positions, so a slide is
// only drawn when it is exactly what happened.
export function slideBetween(previous, next) {
  if (!previous || previous.variant !== next.variant || previous.position === next.position) return null;
  let pairs = null;
  let before;
  let after;
  if (next.ply === previous.ply + 1 && next.moves[next.ply - 1]?.position === next.position
      && positionAtPly(next, next.ply - 1) === previous.position) {
    pairs = slideSources(next.moves[next.ply - 1].move);
    [before, after] = [previous.position, next.position];
  } else if (next.ply === previous.ply - 1 && previous.moves[previous.ply - 1]?.position === previous.position
      && positionAtPly(previous, previous.ply - 1) === next.position) {
    pairs = slideSources(previous.moves[previous.ply - 1].move).map(({ to, from }) => ({ to: from, from: to }));
    [before, after] = [previous.position, next.position];
  }
  if (!pairs?.length) return null;
  try {
    const a = parsePosition(before).cells;
    const b = parsePosition(after).cells;
    // Every cube but the taken one must be the one that stood on its source square.
    const consistent = pairs.slice(1).every(({ to, from }) => b[squareIndex(to)] === a[squareIndex(from)]);
    return consistent ? pairs : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the turn line and clocks

// The three parts of the line above the board: who is to move, the result, who thinks.
export function turnTexts(state) {
  const browsing = state.ply < state.moves.length ? ` (after move ${state.ply} of ${state.moves.length})` : '';
  const player = sideIndex(state, state.to_move);
  const who = player >= 0 ? ` — ${playerName(state.players[player])}` : '';
  // At the end of a finished game nobody is to move; anywhere else the shown side is.
  const over = state.result && state.ply === state.moves.length;
  const thinking = state.thinking;
  const pondering = state.pondering;
  return {
    toMove: over ? `Game over${browsing}` : `${sideName(state.to_move)} to move${who}${browsing}`,
    result: state.result
      ? `Result ${state.result.score}${state.result.reason ? ` — ${state.result.reason}` : ''}` : '',
    thinking: [
      thinking ? `${thinking.engine} is ${thinking.purpose === 'analysis' ? 'analysing' : 'thinking'}…` : '',
      pondering ? `${pondering.engine} is pondering on ${pondering.move}.` : '',
    ].filter(Boolean).join(' '),
  };
}

// "8.3" under ten seconds, else "1:05" or "1:02:03".
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped === 0) return '0:00';  // a clock that ran out
  if (clamped < 10000) return `${(clamped / 1000).toFixed(1)}`;
  const seconds = Math.floor(clamped / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

// ---------------------------------------------------------------- the move list

// What the move list shows of a game; the list is rebuilt only when this changes, so that a
// focused move button keeps its focus while stepping through the game.
export function movesKey(state) {
  return JSON.stringify([state.variant, state.start, state.moves, state.tree ?? null, state.line ?? null]);
}

// The column of the game's first move in the list's rows (one column per side or seat): a game
// set up with O (or a later seat) to move starts its first row with gaps.
export function firstMoveColumn(state) {
  return Math.max(0, sidesOf(state.variant).indexOf(sideOf(state.start)));
}

// A move button's tooltip: who made it and what its engine said.
export function moveDetails(move) {
  const details = [`by ${playerName(move.by)}`];
  if (move.score) details.push(`score ${formatScore(move.score)} (mover)`);
  if (move.depth !== null && move.depth !== undefined) details.push(`depth ${move.depth}`);
  if (move.time_ms !== null && move.time_ms !== undefined) details.push(`${(move.time_ms / 1000).toFixed(1)} s`);
  return details.join(', ');
}

// ---------------------------------------------------------------- engine output

// The score to show for the shown position, in X's point of view: the best analysis line, else
// the thinking engine's latest line, else the score of the move that led here. `analysis` maps
// multipv -> line, `engineInfo` engine -> line.
export function currentScoreForX(state, analysis, engineInfo) {
  if (!state) return null;
  const side = state.to_move;
  const best = analysis.get(1);
  if (best?.score) return scoreForX(best.score, side);
  for (const info of engineInfo.values()) {
    if (info.ply === state.ply && info.score) return scoreForX(info.score, side);
  }
  if (state.ply > 0) {
    const move = state.moves[state.ply - 1];
    if (move?.score) return scoreForX(move.score, moverOf(state, state.ply - 1));
  }
  return null;
}

// One info line as text, its score turned to X's point of view.
export function infoText(info, side) {
  const parts = [];
  const score = scoreForX(info.score, side);
  if (score) {
    const bound = boundForX(info.bound, side);
    parts.push(`${bound === 'lowerbound' ? '≥' : bound === 'upperbound' ? '≤' : ''}${formatScore(score)}`);
  }
  if (info.depth !== null && info.depth !== undefined) {
    parts.push(`depth ${info.depth}${info.seldepth ? `/${info.seldepth}` : ''}`);
  }
  if (info.nodes !== null && info.nodes !== undefined) parts.push(`${formatCount(info.nodes)} nodes`);
  if (info.nps !== null && info.nps !== undefined) parts.push(`${formatCount(info.nps)} nps`);
  if (info.tbhits) parts.push(`${formatCount(info.tbhits)} tbhits`);
  return parts.join('  ');
}

export function pvText(pv) {
  return (pv ?? []).map((move) => (move === '0000' ? 'pass' : move)).join(' ');
}

// The side to move in the position an engine searched (`ply` moves into the game).
export function sideAtPly(state, ply) {
  const side = sideOf(positionAtPly(state, ply));
  if (side) return side;
  // A ponder search's position is one move past the end of a two-player game: the side that has
  // just moved is to move there.
  if (state.variant === '2p' && ply === state.moves.length + 1) {
    return sideOf(positionAtPly(state, state.moves.length)) === 'x' ? 'o' : 'x';
  }
  return state.to_move;
}

// An info line keeps the figures of the previous one that it does not repeat (a line with only
// `nodes` and `nps` keeps the last score and pv).
export function withoutNulls(info) {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== null && value !== undefined));
}

// ---------------------------------------------------------------- the game controls

// The `players` of a new game from the controls' values: {variant, mode, engine1, engine2,
// humanSide, seats: the four seat selectors}; an empty engine choice stands for a person.
export function playersFor({ variant, mode, engine1, engine2, humanSide, seats }) {
  if (variant === '4p') return seats.map((player) => player || 'human');
  const e1 = engine1 || 'human';
  const e2 = engine2 || e1;
  if (mode === 'human-engine') return humanSide === 'o' ? [e1, 'human'] : ['human', e1];
  if (mode === 'engine-engine') return [e1, e2];
  return ['human', 'human'];
}

// What the mode fills the four seat selectors with (they may then be changed one by one).
export function seatPresets({ mode, engine1, engine2, humanSide }) {
  const e1 = engine1 || 'human';
  const e2 = engine2 || e1;
  return ['1', '2', '3', '4'].map((seat) => {
    const team = teamOfSide(seat);
    if (mode === 'human-engine') return team === humanSide ? 'human' : e1;
    if (mode === 'engine-engine') return team === 'x' ? e1 : e2;
    return 'human';
  });
}

// The mode selector's value that describes a game's players.
export function modeOfGame(state) {
  const engines = state.players.filter((player) => player !== 'human');
  const humans = state.players.length - engines.length;
  if (engines.length === 0) return state.analysis?.on ? 'analysis' : 'human-human';
  if (humans === 0) return 'engine-engine';
  return 'human-engine';
}

// The analysis line count to ask for: the field's number, whole, from 1 to 20.
export function clampMultipv(value) {
  return Math.max(1, Math.min(20, Math.round(Number(value) || 1)));
}

// ---------------------------------------------------------------- the game's tree (variations)

// The tree of the state's game as the move list lays it out (state.tree: the main line, each
// entry {id, move, ply, comment, variations: [lines]}); a state without one (an older server)
// gives its moves as a main line without ids.
export function gameTree(state) {
  if (Array.isArray(state.tree)) return state.tree;
  return state.moves.map((move, index) => ({
    id: null, move: move.move, ply: index + 1, comment: '', variations: [],
  }));
}

function moveText(move) {
  return move === '0000' ? 'pass' : move;
}

// "3. " for the first side's or seat's move, "3… " for another when `restate`, else "".
export function moveNumberText(state, ply, restate) {
  const sides = sidesOf(state.variant).length;
  const index = firstMoveColumn(state) + ply - 1;
  const number = Math.floor(index / sides) + 1;
  if (index % sides === 0) return `${number}. `;
  return restate ? `${number}… ` : '';
}

// A variation as the list shows it, inline: "(", its numbered moves with their comments and
// nested variations, ")".
export function variationTokens(line, state) {
  const tokens = [{ kind: 'open' }];
  line.forEach((entry, index) => {
    const before = line[index - 1];
    const restate = index === 0 || Boolean(before.comment) || before.variations.length > 0;
    tokens.push({
      kind: 'move', node: entry.id, ply: entry.ply,
      text: `${moveNumberText(state, entry.ply, restate)}${moveText(entry.move)}`,
    });
    if (entry.comment) tokens.push({ kind: 'comment', text: entry.comment });
    for (const nested of entry.variations) tokens.push(...variationTokens(nested, state));
  });
  tokens.push({ kind: 'close' });
  return tokens;
}

// The move list as lichess lays it out: the main line in numbered rows of one move per side or
// seat; after a move with a comment or variations, a block with them (each variation inline in
// parentheses), and the main line goes on in a new row of the same number.
export function moveListLayout(state) {
  const sides = sidesOf(state.variant).length;
  const first = firstMoveColumn(state);
  const items = [];
  let row = null;
  for (const entry of gameTree(state)) {
    const index = first + entry.ply - 1;
    const column = index % sides;
    if (!row || column === 0) {
      row = { kind: 'row', number: Math.floor(index / sides) + 1, gaps: row ? 0 : column, moves: [] };
      items.push(row);
    }
    row.moves.push({ node: entry.id, ply: entry.ply, text: moveText(entry.move) });
    if (entry.comment || entry.variations.length) {
      items.push({
        kind: 'notes', comment: entry.comment,
        lines: entry.variations.map((line) => variationTokens(line, state)),
      });
      row = null;
    }
  }
  // A row that goes on after a block starts with gaps up to its move's column.
  let previous = null;
  for (const item of items) {
    if (item.kind === 'row' && previous?.kind === 'notes') {
      const index = first + item.moves[0].ply - 1;
      item.gaps = index % sides;
    }
    previous = item;
  }
  return items;
}

// Whether a move button of the list is the shown position: by node when the server names
// nodes, else by ply.
export function isShownMove(state, node, ply) {
  if (state.node !== undefined && node !== null && node !== undefined) return node === state.node;
  return ply === state.ply;
}

// ---------------------------------------------------------------- stepping through the game

// A `goto` the page sent stays the ply to step from until a state shows that ply or it is
// older than `maxAgeMs` (a state about something else, such as an engine's move, does not
// forget it), so that quick presses of an arrow key each go one further.
export function pendingGoto(pending, state, now, maxAgeMs) {
  if (!pending) return null;
  if (state.ply === pending.ply || now - pending.at >= maxAgeMs) return null;
  return pending;
}

// ---------------------------------------------------------------- keeping the person's work

export const SAVED_GAME_KEY = 'quixo-gui.game';

// The id to keep in the browser's storage for a state: its saved game's, when it has a move
// (an empty game is not saved); null to forget the stored one.
export function gameIdToKeep(state) {
  if (!state.game_id) return null;
  return gameTree(state).length > 0 ? state.game_id : null;
}

// A recent game's line in the list: "2026-11-28 09:15 · Person – quixo · 12 plies · *".
export function recentGameText(game) {
  const date = new Date(game.saved_ms);
  const pad = (n) => String(n).padStart(2, '0');
  const when = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} `
    + `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const players = (game.players ?? []).map(playerName).join(' – ');
  return `${when} · ${players} · ${game.plies} ${game.plies === 1 ? 'ply' : 'plies'} · ${game.result}`;
}
