// What the page needs for people who play: the engine's levels by name and Elo, the player tags
// with their level, the engine options form, the winning five, stale engine lines, and a PGN
// sent in parts. Pure functions (no DOM, no connection), tested by node (tests/pure.test.mjs).

import { ALL_SQUARES, parsePosition } from './notation.js';

// The levels the page offers, weakest first, on the engine's UCI_Elo scale (0 = the uniformly
// random mover); those inside the engine's declared UCI_Elo range are offered, and full strength
// always. The one table of names and Elo.
export const LEVELS = [
  { name: 'Random', elo: 0 },
  { name: 'Beginner', elo: 400 },
  { name: 'Casual', elo: 800 },
  { name: 'Club', elo: 1200 },
  { name: 'Strong', elo: 1600 },
  { name: 'Expert', elo: 2000 },
  { name: 'Master', elo: 2400 },
];
export const FULL_STRENGTH = 'full';
// A new person's level: the middle of the table.
export const DEFAULT_ELO = 1200;

// Options the page sets by itself (the level, the analysis lines); the form leaves them out.
const PAGE_OPTIONS = ['uci_limitstrength', 'uci_elo', 'multipv'];

function findOption(options, name) {
  return (options ?? []).find((option) => option.name.toLowerCase() === name.toLowerCase()) ?? null;
}

// The UCI_Elo spin of an engine that declares UCI_LimitStrength and UCI_Elo, else null.
export function eloOption(options) {
  const limit = findOption(options, 'UCI_LimitStrength');
  const elo = findOption(options, 'UCI_Elo');
  return limit && elo && elo.type === 'spin' ? elo : null;
}

// The choices of the level selector for an engine's declared options: {value, label} with
// value the Elo as text, or FULL_STRENGTH; only full strength when the engine has no levels.
export function levelChoices(options) {
  const elo = eloOption(options);
  const full = { value: FULL_STRENGTH, label: 'Full strength' };
  if (!elo) return [full];
  const low = elo.min ?? 0;
  const high = elo.max ?? Infinity;
  const levels = LEVELS.filter((level) => level.elo >= low && level.elo <= high)
    .map((level) => ({ value: String(level.elo), label: `${level.name} · ${level.elo}` }));
  return [...levels, full];
}

// A new person's level: the engine's level nearest DEFAULT_ELO (not full strength).
export function defaultLevel(choices) {
  const levels = choices.filter((choice) => choice.value !== FULL_STRENGTH);
  if (!levels.length) return FULL_STRENGTH;
  const distance = (choice) => Math.abs(Number(choice.value) - DEFAULT_ELO);
  return levels.reduce((best, choice) => (distance(choice) < distance(best) ? choice : best)).value;
}

// "Club · 1200" for a level of the table, "Elo 1300" for another.
export function levelName(elo) {
  const level = LEVELS.find((entry) => entry.elo === elo);
  return level ? `${level.name} · ${elo}` : `Elo ${elo}`;
}

// A player's tag: the name the game gives (a loaded game's file names its players), "Person"
// for a person, and the level an engine plays at: "quixo (Club · 1200)".
export function playerTag(state, index) {
  const player = state.players?.[index] ?? '?';
  const named = state.names?.[index];
  const name = named || (player === 'human' ? 'Person' : player);
  const level = state.levels?.[index];
  return level === null || level === undefined ? name : `${name} (${levelName(level)})`;
}

// The options the form shows: every declared one but those the page sets itself, and buttons.
export function formOptions(options) {
  return (options ?? []).filter((option) => option.type !== 'button'
    && !PAGE_OPTIONS.includes(option.name.toLowerCase()));
}

// Why `value` does not fit the declared option (as the server checks it), or null.
export function optionValueProblem(option, value) {
  if (option.type === 'spin') {
    const number = Number(value);
    const whole = /^-?\d+$/.test(String(value).trim());
    if (!whole || (option.min !== null && option.min !== undefined && number < option.min)
        || (option.max !== null && option.max !== undefined && number > option.max)) {
      return `${option.name} takes a whole number from ${option.min} to ${option.max}`;
    }
  } else if (option.type === 'check') {
    if (value !== 'true' && value !== 'false') return `${option.name} takes true or false`;
  } else if (option.type === 'combo') {
    if (!(option.vars ?? []).some((v) => v.toLowerCase() === String(value).toLowerCase())) {
      return `${option.name} takes one of ${(option.vars ?? []).join(', ')}`;
    }
  }
  return null;
}

// The squares of every line of five equal cubes in a position (a finished game's winning five;
// four players: a team's cubes, whichever seat they point to).
export function winningSquares(position) {
  let cells;
  try {
    cells = parsePosition(position).cells;
  } catch {
    return [];
  }
  const team = (cell) => (cell === 'x' || cell === 'X' ? 'x' : cell === 'o' || cell === 'O' ? 'o' : null);
  const lines = [];
  for (let i = 0; i < 5; ++i) {
    lines.push([0, 1, 2, 3, 4].map((j) => i * 5 + j));
    lines.push([0, 1, 2, 3, 4].map((j) => j * 5 + i));
  }
  lines.push([0, 6, 12, 18, 24], [4, 8, 12, 16, 20]);
  const squares = new Set();
  for (const line of lines) {
    const first = team(cells[line[0]]);
    if (first && line.every((index) => team(cells[index]) === first)) {
      for (const index of line) squares.add(ALL_SQUARES[index]);
    }
  }
  return [...squares].sort();
}

// The engines whose latest line is stale in `state`: about a position no longer in the game (a
// take-back), while the engine neither thinks nor ponders.
export function staleInfoEngines(engineInfo, state) {
  const stale = [];
  for (const [engine, info] of engineInfo) {
    const busy = state.thinking?.engine === engine || state.pondering?.engine === engine;
    if (!busy && typeof info.ply === 'number' && info.ply >= state.moves.length) stale.push(engine);
  }
  return stale;
}

// A PGN text in `load_pgn` messages of at most `size` characters each (a part never ends
// between the two halves of a surrogate pair), numbered from 0: all but the last with
// `more: true`.
export function pgnParts(text, size) {
  const parts = [];
  let start = 0;
  do {
    let end = Math.min(text.length, start + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push({ type: 'load_pgn', text: text.slice(start, end), part: parts.length, more: true });
    start = end;
  } while (start < text.length);
  delete parts[parts.length - 1].more;
  return parts;
}

// A move as the move list draws it: its squares and, in the four-player game, the point letter
// apart ("e2e1" + "O"), so that the letter O is not read as a zero; a pass is "pass".
export function moveParts(move) {
  if (move === '0000') return { squares: 'pass', point: null };
  if (/^[a-e][1-5][a-e][1-5][xXoO]$/.test(move)) return { squares: move.slice(0, 4), point: move[4] };
  return { squares: move, point: null };
}
