// The page's controller: the connection to quixo-gui, the controls, and drawing each `state`
// the server sends. The server owns the game (docs/gui-protocol.md): the page sends intentions
// (a move, new_game, goto, ...) and draws what comes back, so nothing here knows the rules;
// which cubes may be taken and where they may go come from `state.legal`.

import { BoardView } from './board.js';
import { Connection, socketUrl } from './connection.js';
import { BoardEditor } from './editor.js';
import { EvalGraph } from './graph.js';
import {
  parseMove, parsePosition, partnerOfSeat, seatLabel, seatOfLetter, sideOf, sidesOf,
  slideSources, squareIndex, teamOfSide,
} from './notation.js';
import {
  barFraction, boundForX, formatCount, formatScore, graphPoints, moverOf, scoreForX,
} from './score.js';

const $ = (id) => document.getElementById(id);

const STATUS_FADE_MS = 6000;
const KEY_REPEAT_MS = 60;        // held arrow keys stay well under the server's 40 messages/s
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const NAV_PENDING_MS = 1000;     // how long an unanswered goto counts as the shown ply
const PROTOCOL_VERSION = 1;      // docs/gui-protocol.md, `hello.version`

const app = {
  connection: null,
  hello: null,
  state: null,
  sessionHasGame: false,     // this connection has asked for or been sent a game
  selected: null,            // the square of the cube picked up
  pointChoice: null,         // {from, to, moves} while the person picks the point (4p)
  analysis: new Map(),       // multipv -> latest analysis info for the shown position
  engineInfo: new Map(),     // engine name -> its latest info while it thinks about a move
  clock: null,               // {remaining, running, at} for the local countdown
  flipped: false,
  editor: null,              // a BoardEditor while the board is being edited
  mode: 'human-engine',      // the mode selector's value when last acted on
  lastNavAt: 0,
  requestedPly: null,        // {ply, at}: the last goto sent, until a state answers it
  statusTimer: null,
  pgnUrl: null,
};

let board;
let graph;

// ---------------------------------------------------------------- status line

function setStatus(text, kind = 'info') {
  const status = $('status');
  status.textContent = text;
  status.className = `status status-${kind}`;
  clearTimeout(app.statusTimer);
  // Notes fade; errors and connection trouble stay until something replaces them.
  if (kind === 'ok') {
    app.statusTimer = setTimeout(() => {
      if (status.textContent === text) status.textContent = '';
    }, STATUS_FADE_MS);
  }
}

// ---------------------------------------------------------------- sending

function send(message) {
  if (!app.connection?.send(message)) {
    setStatus('Not connected to quixo-gui; the page reconnects by itself.', 'error');
    return false;
  }
  return true;
}

function maxBytes() {
  return app.hello?.max_message_bytes ?? DEFAULT_MAX_BYTES;
}

function fitsInOneMessage(message) {
  return new TextEncoder().encode(JSON.stringify(message)).length <= maxBytes();
}

// ---------------------------------------------------------------- helpers over a state

function engineNames() {
  return (app.hello?.engines ?? []).map((engine) => engine.name);
}

// The position string after `ply` moves of the state's game.
function positionAtPly(state, ply) {
  if (ply <= 0) return state.start;
  return state.moves[ply - 1]?.position ?? null;
}

function sideName(side) {
  if (side === 'x') return 'X';
  if (side === 'o') return 'O';
  if (/^[1-4]$/.test(side ?? '')) return `Seat ${side} (${seatLabel(side)}, ${teamOfSide(side).toUpperCase()})`;
  return side ?? '';
}

function playerName(player) {
  return player === 'human' ? 'Person' : player;
}

function isForcedPass(state) {
  return state.legal.length > 0 && state.legal.every((move) => move.move === '0000');
}

// The takeable squares: the from-squares of the legal moves, when a click may move now.
function takeableSquares(state) {
  if (!state?.human_to_move || app.editor) return new Set();
  return new Set(state.legal.filter((move) => move.from).map((move) => move.from));
}

// The exact values of the legal moves by move text, when the tables answered.
function tbMoves(state) {
  return new Map((state?.tb?.moves ?? []).map((entry) => [entry.move, entry]));
}

// Of several table entries (moves that differ only in their point), the one best for the mover:
// the fastest win, else a draw, else the slowest loss.
function bestTbEntry(entries) {
  const rank = (entry) => {
    if (entry.value === 'win') return 2000 - (entry.distance ?? 0);
    if (entry.value === 'draw') return 1000;
    return entry.distance ?? 0;
  };
  return entries.reduce((best, entry) => (best === null || rank(entry) > rank(best) ? entry : best), null);
}

function tbLabel(entry) {
  if (!entry) return null;
  if (entry.value === 'draw') return '=';
  const letter = entry.value === 'win' ? 'W' : 'L';
  return entry.distance === null || entry.distance === undefined ? letter : `${letter}${entry.distance}`;
}

// ---------------------------------------------------------------- the board

function targetsOf(state, from) {
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

// The best analysis line's first moves, drawn as arrows: the first strongest.
function analysisArrows(state) {
  if (!state?.analysis?.on || app.editor) return [];
  const best = app.analysis.get(1);
  if (!best?.pv) return [];
  return best.pv.slice(0, 3).map((text, index) => {
    const move = parseMove(text);
    return move && !move.pass ? { from: move.from, to: move.to, weight: index } : null;
  }).filter(Boolean);
}

// A move of one ply forward or back along the game that the board can show as a slide: the
// pairs {to, from} of cubes to glide, or null. Checked against both positions, so a slide is
// only drawn when it is exactly what happened.
function slideBetween(previous, next) {
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

function renderBoard(slide = null) {
  const state = app.state;
  const svg = $('board');
  // The board's data attributes always describe the server's shown position, even while the
  // editor draws a position of its own.
  if (state) {
    svg.dataset.position = state.position;
    svg.dataset.toMove = state.to_move;
    svg.dataset.result = state.result?.score ?? '';
    svg.dataset.ply = String(state.ply);
    svg.dataset.humanToMove = state.human_to_move ? 'true' : 'false';
  }
  if (app.editor) {
    board.render({ cells: app.editor.cells, variant: app.editor.variant, editing: true });
    return;
  }
  if (!state) return;
  let cells;
  try {
    cells = parsePosition(state.position).cells;
  } catch (error) {
    setStatus(`The server sent a position the page cannot read: ${error.message}`, 'error');
    cells = new Array(25).fill('');
  }
  const lastMove = state.ply > 0 ? parseMove(state.moves[state.ply - 1]?.move) : null;
  board.render({
    cells,
    variant: state.variant,
    takeable: takeableSquares(state),
    selected: app.selected,
    targets: targetsOf(state, app.selected),
    lastMove: lastMove && !lastMove.pass ? lastMove : null,
    arrows: analysisArrows(state),
    seats: state.variant === '4p' ? seatTags(state) : null,
    slide,
  });
}

function seatTags(state) {
  return ['1', '2', '3', '4'].map((seat, index) => ({
    seat,
    text: `${seat} · ${seatLabel(seat)} · ${teamOfSide(seat).toUpperCase()} · ${playerName(state.players[index] ?? '')}`,
    toMove: state.to_move === seat && !state.result,
  }));
}

function onSquareClick(square) {
  if (app.editor) {
    app.editor.cycle(square);
    editorChanged();
    return;
  }
  const state = app.state;
  if (!state) return;
  if (!state.human_to_move) {
    if (state.thinking) setStatus(`${state.thinking.engine} is thinking; “Stop” makes it move now.`);
    return;
  }
  closePointChoice();
  const targets = targetsOf(state, app.selected);
  if (app.selected && targets.has(square)) {
    chooseMove(app.selected, square);
  } else if (takeableSquares(state).has(square) && app.selected !== square) {
    app.selected = square;
  } else {
    app.selected = null;
  }
  renderBoard();
}

function chooseMove(from, to) {
  const moves = app.state.legal.filter((move) => move.from === from && move.to === to);
  if (moves.length === 1) {
    sendMove(moves[0].move);
  } else if (moves.length > 1) {
    openPointChoice(from, to, moves);
  }
}

function sendMove(move) {
  if (send({ type: 'move', move })) {
    app.selected = null;
    closePointChoice();
    renderBoard();
  }
}

// Four players: the same push with the point toward the mover or toward the partner.
function openPointChoice(from, to, moves) {
  app.pointChoice = { from, to, moves };
  const box = $('point-choice');
  box.replaceChildren();
  const mover = Number(app.state.to_move);
  const label = document.createElement('span');
  label.className = 'point-label';
  label.textContent = `${from}→${to}: the cube points to`;
  box.appendChild(label);
  for (const move of moves) {
    const letter = move.point ?? move.move[4];
    const seat = seatOfLetter(letter);
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.point = letter;
    button.textContent = seat === mover ? `me (seat ${seat})`
      : seat === partnerOfSeat(mover) ? `my partner (seat ${seat})` : `seat ${seat}`;
    button.addEventListener('click', () => sendMove(move.move));
    box.appendChild(button);
  }
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'secondary';
  cancel.textContent = 'Cancel';
  cancel.addEventListener('click', () => {
    closePointChoice();
    app.selected = null;
    renderBoard();
  });
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector('button')?.focus();
}

function closePointChoice() {
  app.pointChoice = null;
  const box = $('point-choice');
  box.hidden = true;
  box.replaceChildren();
}

// ---------------------------------------------------------------- state

// A state with every list present, so that the drawing code need not guard each field.
function completeState(message) {
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

function onState(message) {
  const state = completeState(message);
  const previous = app.state;
  const previousMovesKey = app.movesKey;
  app.state = state;
  app.sessionHasGame = true;
  app.requestedPly = null;
  syncMultipv(previous, state);
  const moved = !previous || previous.position !== state.position || previous.ply !== state.ply;
  if (moved || !state.human_to_move) {
    app.selected = null;
    closePointChoice();
  }
  // Analysis lines belong to one position; a new one starts them afresh.
  if (moved || !state.analysis?.on) app.analysis.clear();
  // Engine lines stay up after a game ends (to be read) and go when another game starts.
  const freshGame = gameChanged(previous, state) || (previous.moves.length > 0 && state.moves.length === 0 && state.ply === 0);
  if (freshGame) app.engineInfo.clear();
  app.clock = state.clock
    ? { remaining: [...state.clock.remaining_ms], running: state.clock.running, at: performance.now() }
    : null;
  if (gameChanged(previous, state)) syncControls(state);
  app.movesKey = movesKey(state);

  renderBoard(slideBetween(previous, state));
  renderTurn();
  renderPlayers();
  renderClocks();
  renderMoveList(previousMovesKey);
  renderGraph();
  renderEvalBar();
  renderTb();
  renderAnalysis();
  renderInfoLines();
  renderMoveActions();
  renderPosition();
}

// The analysis line count follows the server's, unless the person is typing in the field.
function syncMultipv(previous, state) {
  const multipv = state.analysis?.multipv;
  const field = $('analysis-multipv');
  if (!multipv || previous?.analysis?.multipv === multipv || document.activeElement === field) return;
  field.value = String(multipv);
}

function gameChanged(previous, state) {
  if (!previous) return true;
  return previous.variant !== state.variant || previous.start !== state.start
    || previous.time !== state.time || previous.players.join() !== state.players.join();
}

function renderTurn() {
  const state = app.state;
  const browsing = state.ply < state.moves.length ? ` (after move ${state.ply} of ${state.moves.length})` : '';
  const player = sideIndex(state, state.to_move);
  const who = player >= 0 ? ` — ${playerName(state.players[player])}` : '';
  // At the end of a finished game nobody is to move; anywhere else the shown side is.
  const over = state.result && state.ply === state.moves.length;
  $('to-move-text').textContent = over ? `Game over${browsing}` : `${sideName(state.to_move)} to move${who}${browsing}`;
  $('result-text').textContent = state.result
    ? `Result ${state.result.score}${state.result.reason ? ` — ${state.result.reason}` : ''}` : '';
  const thinking = state.thinking;
  const pondering = state.pondering;
  $('thinking-text').textContent = [
    thinking ? `${thinking.engine} is ${thinking.purpose === 'analysis' ? 'analysing' : 'thinking'}…` : '',
    pondering ? `${pondering.engine} is pondering on ${pondering.move}.` : '',
  ].filter(Boolean).join(' ');
}

// The index of a side or seat in `players`, `clock.remaining_ms`: 2p x=0, o=1; 4p seat n = n-1.
function sideIndex(state, side) {
  const index = sidesOf(state.variant).indexOf(side);
  return index;
}

function renderPlayers() {
  const state = app.state;
  const sides = sidesOf(state.variant);
  document.querySelectorAll('#players .player').forEach((item, index) => {
    const side = sides[index];
    item.hidden = side === undefined;
    if (side === undefined) return;
    item.classList.toggle('to-move', state.to_move === side && !state.result);
    item.classList.toggle('team-a', teamOfSide(side) === 'x');
    item.classList.toggle('team-b', teamOfSide(side) === 'o');
    $(`player-name-${index}`).textContent = `${sideName(side)}: ${playerName(state.players[index] ?? '?')}`;
  });
}

// ---------------------------------------------------------------- clocks

function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < 10000) return `${(clamped / 1000).toFixed(1)}`;
  const seconds = Math.floor(clamped / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

// Counts the running clock down locally from the last state's remaining_ms; the next state
// brings the server's own figures.
function renderClocks() {
  for (let index = 0; index < 4; ++index) {
    const element = $(`clock-${index}`);
    const clock = app.clock;
    if (!clock || index >= clock.remaining.length) {
      element.hidden = true;
      continue;
    }
    let remaining = clock.remaining[index];
    const running = clock.running === index;
    if (running) remaining -= performance.now() - clock.at;
    element.hidden = false;
    element.textContent = formatClock(remaining);
    element.classList.toggle('running', running);
    element.classList.toggle('low', remaining < 10000);
  }
}

// ---------------------------------------------------------------- moves and graph

// What the move list shows of a game; the list is rebuilt only when this changes, so that a
// focused move button keeps its focus while stepping through the game.
function movesKey(state) {
  return JSON.stringify([state.variant, state.start, state.moves]);
}

function renderMoveList(previousKey) {
  const state = app.state;
  const list = $('move-list');
  const sides = sidesOf(state.variant);
  if (previousKey !== app.movesKey) {
    list.replaceChildren();
    // Rows of one move per side or seat, numbered; a game set up with O (or a later seat) to
    // move starts its first row with gaps.
    const first = Math.max(0, sides.indexOf(sideOf(state.start)));
    let row = null;
    state.moves.forEach((move, index) => {
      const column = (first + index) % sides.length;
      if (!row || column === 0) {
        row = document.createElement('li');
        row.className = 'move-row';
        list.appendChild(row);
        for (let gap = index === 0 ? column : 0; gap > 0; --gap) {
          const spacer = document.createElement('span');
          spacer.className = 'move-gap';
          spacer.textContent = '…';
          row.appendChild(spacer);
        }
      }
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.dataset.ply = String(index + 1);
      button.textContent = move.move === '0000' ? 'pass' : move.move;
      const details = [`by ${playerName(move.by)}`];
      if (move.score) details.push(`score ${formatScore(move.score)} (mover)`);
      if (move.depth !== null && move.depth !== undefined) details.push(`depth ${move.depth}`);
      if (move.time_ms !== null && move.time_ms !== undefined) details.push(`${(move.time_ms / 1000).toFixed(1)} s`);
      button.title = details.join(', ');
      button.addEventListener('click', () => goto(index + 1));
      row.appendChild(button);
    });
  }
  let current = null;
  list.querySelectorAll('.move').forEach((button) => {
    const isCurrent = Number(button.dataset.ply) === state.ply;
    button.classList.toggle('current', isCurrent);
    if (isCurrent) {
      button.setAttribute('aria-current', 'step');
      current = button;
    } else {
      button.removeAttribute('aria-current');
    }
  });
  // Keep the shown move in view inside the list without scrolling the page.
  if (current) {
    const top = current.offsetTop;  // the list is the buttons' offset parent (position: relative)
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  } else if (state.ply === 0) {
    list.scrollTop = 0;
  }
}

function goto(ply) {
  const state = app.state;
  if (!state) return;
  const target = Math.max(0, Math.min(state.moves.length, ply));
  if (target === shownPly()) return;
  if (send({ type: 'goto', ply: target })) app.requestedPly = { ply: target, at: performance.now() };
}

// The ply to step from: the one last asked for while its state is still on its way, so that
// quick presses of an arrow key each go one further.
function shownPly() {
  const requested = app.requestedPly;
  if (requested && performance.now() - requested.at < NAV_PENDING_MS) return requested.ply;
  return app.state?.ply ?? 0;
}

function renderGraph() {
  const state = app.state;
  graph.render(graphPoints(state), state.moves.length, state.ply);
}

// ---------------------------------------------------------------- engine output

// The score to show for the shown position, in X's point of view: the best analysis line, else
// the thinking engine's latest line, else the score of the move that led here.
function currentScoreForX() {
  const state = app.state;
  if (!state) return null;
  const side = state.to_move;
  const best = app.analysis.get(1);
  if (best?.score) return scoreForX(best.score, side);
  for (const info of app.engineInfo.values()) {
    if (info.ply === state.ply && info.score) return scoreForX(info.score, side);
  }
  if (state.ply > 0) {
    const move = state.moves[state.ply - 1];
    if (move?.score) return scoreForX(move.score, moverOf(state, state.ply - 1));
  }
  return null;
}

function renderEvalBar() {
  const score = currentScoreForX();
  const fraction = barFraction(score);
  $('eval-bar-fill').style.height = `${(fraction * 100).toFixed(1)}%`;
  $('eval-bar-text').textContent = score ? formatScore(score) : '';
  const bar = $('eval-bar');
  bar.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
  bar.setAttribute('aria-valuetext', score ? `${formatScore(score)} for X` : 'no score');
  bar.dataset.score = score ? formatScore(score) : '';
}

// One info line as text, its score turned to X's point of view.
function infoText(info, side) {
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

function pvText(pv) {
  return (pv ?? []).map((move) => (move === '0000' ? 'pass' : move)).join(' ');
}

function sideAtPly(state, ply) {
  const side = sideOf(positionAtPly(state, ply));
  if (side) return side;
  // A ponder search's position is one move past the end of a two-player game: the side that has
  // just moved is to move there.
  if (state.variant === '2p' && ply === state.moves.length + 1) {
    return sideOf(positionAtPly(state, state.moves.length)) === 'x' ? 'o' : 'x';
  }
  return state.to_move;
}

function renderAnalysis() {
  const list = $('analysis-lines');
  list.replaceChildren();
  const state = app.state;
  if (!state) return;
  const side = state.to_move;
  for (const multipv of [...app.analysis.keys()].sort((a, b) => a - b)) {
    const info = app.analysis.get(multipv);
    const item = document.createElement('li');
    item.dataset.multipv = String(multipv);
    const head = document.createElement('span');
    head.className = 'info-head';
    head.textContent = infoText(info, side);
    const pv = document.createElement('span');
    pv.className = 'pv';
    pv.textContent = pvText(info.pv);
    item.append(head, pv);
    list.appendChild(item);
  }
  if (state.analysis?.on && app.analysis.size === 0) {
    const item = document.createElement('li');
    item.className = 'waiting';
    item.textContent = 'Analysing…';
    list.appendChild(item);
  }
}

function renderInfoLines() {
  const list = $('info-lines');
  list.replaceChildren();
  const state = app.state;
  if (!state) return;
  for (const [engine, info] of app.engineInfo) {
    const item = document.createElement('li');
    item.dataset.engine = engine;
    const name = document.createElement('span');
    name.className = 'info-engine';
    name.textContent = info.purpose === 'ponder' && state.pondering?.engine === engine
      ? `${engine} (pondering on ${state.pondering.move})` : engine;
    const head = document.createElement('span');
    head.className = 'info-head';
    head.textContent = infoText(info, sideAtPly(state, info.ply ?? state.ply));
    const pv = document.createElement('span');
    pv.className = 'pv';
    pv.textContent = info.string ? info.string : pvText(info.pv);
    item.append(name, head, pv);
    list.appendChild(item);
  }
}

function onInfo(info) {
  const state = app.state;
  if (!state) return;
  if (info.purpose === 'analysis') {
    if (info.ply !== state.ply) return;  // about a position no longer shown
    if (!info.score && !info.pv) return;  // a bare `string` or currmove line
    app.analysis.set(info.multipv ?? 1, { ...app.analysis.get(info.multipv ?? 1), ...withoutNulls(info) });
    renderAnalysis();
    if (!app.editor) board.drawArrows(analysisArrows(state));
  } else {
    const engine = info.engine ?? 'engine';
    app.engineInfo.set(engine, { ...app.engineInfo.get(engine), ...withoutNulls(info) });
    renderInfoLines();
  }
  renderEvalBar();
}

// An info line keeps the figures of the previous one that it does not repeat (a line with only
// `nodes` and `nps` keeps the last score and pv).
function withoutNulls(info) {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== null && value !== undefined));
}

// ---------------------------------------------------------------- tables

function renderTb() {
  const state = app.state;
  const box = $('tb-box');
  const value = $('tb-value');
  const list = $('tb-moves');
  list.replaceChildren();
  if (!state.tb) {
    box.hidden = true;
    value.textContent = '';
    value.removeAttribute('data-value');
    value.removeAttribute('data-distance');
    return;
  }
  box.hidden = false;
  const tb = state.tb;
  const distance = tb.value === 'draw' || tb.distance === null || tb.distance === undefined
    ? '' : ` in ${tb.distance} ${tb.distance === 1 ? 'ply' : 'plies'}`;
  value.textContent = `${sideName(state.to_move)} to move: ${tb.value}${distance}`;
  value.className = `tb-value tb-${tb.value}`;
  value.dataset.value = tb.value;
  value.dataset.distance = tb.distance ?? '';
  const order = (entry) => (entry.value === 'win' ? (entry.distance ?? 0)
    : entry.value === 'draw' ? 10000 : 20000 - (entry.distance ?? 0));
  const entries = [...(tb.moves ?? [])].sort((a, b) => order(a) - order(b));
  for (const entry of entries) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `tb-move tb-${entry.value}`;
    button.dataset.move = entry.move;
    button.dataset.value = entry.value;
    const distanceText = entry.value === 'draw' ? '' : ` ${entry.distance}`;
    button.textContent = `${entry.move} ${entry.value}${distanceText}`;
    button.title = 'Click to play this move';
    button.disabled = !state.human_to_move;
    button.addEventListener('click', () => {
      if (app.state?.human_to_move) sendMove(entry.move);
    });
    item.appendChild(button);
    list.appendChild(item);
  }
}

// ---------------------------------------------------------------- pass, position

function renderMoveActions() {
  const state = app.state;
  $('pass').hidden = !(state.human_to_move && isForcedPass(state));
}

function renderPosition() {
  $('position-text').value = app.state.position;
}

async function copyPosition() {
  const text = app.state?.position ?? '';
  const field = $('position-text');
  field.value = text;
  try {
    await navigator.clipboard.writeText(text);
    setStatus(`Copied ${text}`, 'ok');
  } catch {
    // The clipboard API needs a secure context (localhost is one); elsewhere select the text.
    field.focus();
    field.select();
    const copied = document.execCommand?.('copy');
    setStatus(copied ? `Copied ${text}` : 'Select the position text and copy it by hand.', copied ? 'ok' : 'info');
  }
}

// ---------------------------------------------------------------- board editor

function toggleEditor(on) {
  const state = app.state;
  if (on && state) {
    app.editor = BoardEditor.fromPosition(state.position, state.variant);
    app.selected = null;
    closePointChoice();
    fillEditSides(app.editor.variant, app.editor.side);
    $('setup-position').value = app.editor.toString();
  } else {
    app.editor = null;
  }
  $('edit-board').setAttribute('aria-pressed', app.editor ? 'true' : 'false');
  $('edit-tools').hidden = !app.editor;
  $('edit-hint').hidden = !app.editor;
  renderBoard();
}

function fillEditSides(variant, side) {
  const select = $('edit-side');
  select.replaceChildren(...sidesOf(variant).map((value) => new Option(sideName(value), value)));
  select.value = side;
}

function editorChanged() {
  $('setup-position').value = app.editor.toString();
  renderBoard();
}

function applySetup() {
  const position = $('setup-position').value.trim();
  if (!position) {
    setStatus('Type or paste a position string first, e.g. 5/5/5/5/5 x', 'error');
    return;
  }
  try {
    parsePosition(position);
  } catch (error) {
    setStatus(`Position: ${error.message}`, 'error');
    return;
  }
  if (send({ type: 'setup', position })) toggleEditor(false);
}

// ---------------------------------------------------------------- controls

function fillEngineSelects() {
  const names = engineNames();
  for (const id of ['engine-1', 'engine-2']) {
    const select = $(id);
    const keep = select.value;
    select.replaceChildren(...(app.hello?.engines ?? []).map((engine) =>
      new Option(engine.id ? `${engine.name} (${engine.id})` : engine.name, engine.name)));
    if (names.length === 0) select.appendChild(new Option('(no engine listed)', ''));
    if (names.includes(keep)) select.value = keep;
    // Engine vs engine defaults to two different engines when there are two.
    else if (id === 'engine-2' && names.length > 1) select.value = names[1];
  }
  for (let seat = 1; seat <= 4; ++seat) {
    const select = $(`seat-player-${seat}`);
    const keep = select.value;
    select.replaceChildren(new Option('Person', 'human'), ...names.map((name) => new Option(name, name)));
    select.value = ['human', ...names].includes(keep) ? keep : 'human';
  }
  presetSeats();
}

// Four players: the mode fills the seat selectors, which may then be changed one by one.
function presetSeats() {
  const mode = $('mode').value;
  const e1 = $('engine-1').value || 'human';
  const e2 = $('engine-2').value || e1;
  const humanTeam = $('human-side').value;
  for (let seat = 1; seat <= 4; ++seat) {
    const team = teamOfSide(String(seat));
    let player = 'human';
    if (mode === 'human-engine') player = team === humanTeam ? 'human' : e1;
    else if (mode === 'engine-engine') player = team === 'x' ? e1 : e2;
    $(`seat-player-${seat}`).value = player;
  }
}

function playersFromControls() {
  const variant = $('variant').value;
  if (variant === '4p') return [1, 2, 3, 4].map((seat) => $(`seat-player-${seat}`).value || 'human');
  const mode = $('mode').value;
  const e1 = $('engine-1').value || 'human';
  const e2 = $('engine-2').value || e1;
  if (mode === 'human-engine') return $('human-side').value === 'o' ? [e1, 'human'] : ['human', e1];
  if (mode === 'engine-engine') return [e1, e2];
  return ['human', 'human'];
}

function updateControlHints() {
  const mode = $('mode').value;
  const variant = $('variant').value;
  // Controls that the mode does not use are dimmed, not hidden or disabled, so that they can be
  // set in any order before "New game".
  document.querySelectorAll('[data-for-mode]').forEach((element) => {
    element.classList.toggle('unused', element.dataset.forMode !== mode || variant === '4p');
  });
  $('seat-fields').hidden = variant !== '4p';
  $('engine-2').previousElementSibling.textContent = variant === '4p' ? 'Engine 2 (team B)' : 'Engine 2 (O)';
}

// After a game starts that the controls do not describe (a loaded PGN game, a reconnect, a new
// game from elsewhere), the controls are set to describe it, so "New game" repeats it.
function syncControls(state) {
  const time = state.time ?? '';
  if ($('time').value.trim() !== time) $('time').value = time;
  const same = $('variant').value === state.variant
    && playersFromControls().join() === state.players.join();
  if (same) return;
  $('variant').value = state.variant;
  const engines = state.players.filter((player) => player !== 'human');
  const humans = state.players.length - engines.length;
  let mode;
  if (engines.length === 0) mode = state.analysis?.on ? 'analysis' : 'human-human';
  else if (humans === 0) mode = 'engine-engine';
  else mode = 'human-engine';
  $('mode').value = mode;
  app.mode = mode;
  const names = engineNames();
  const pick = (id, name) => {
    if (name && names.includes(name)) $(id).value = name;
  };
  if (state.variant === '2p') {
    if (mode === 'human-engine') {
      $('human-side').value = state.players[0] === 'human' ? 'x' : 'o';
      pick('engine-1', engines[0]);
    } else if (mode === 'engine-engine') {
      pick('engine-1', state.players[0]);
      pick('engine-2', state.players[1]);
    }
  } else {
    state.players.forEach((player, index) => {
      const select = $(`seat-player-${index + 1}`);
      if ([...select.options].some((option) => option.value === player)) select.value = player;
    });
    const firstHuman = state.players.indexOf('human');
    if (firstHuman >= 0) $('human-side').value = teamOfSide(String(firstHuman + 1));
    if (engines.length) pick('engine-1', engines[0]);
  }
  updateControlHints();
}

function analysisRequest(on) {
  const message = { type: 'analyze', on };
  if (on) {
    const engine = $('engine-1').value;
    if (engine) message.engine = engine;
    const multipv = Math.max(1, Math.min(20, Math.round(Number($('analysis-multipv').value) || 1)));
    message.multipv = multipv;
  }
  return message;
}

function newGame() {
  const message = { type: 'new_game', variant: $('variant').value, players: playersFromControls() };
  const time = $('time').value.trim();
  if (time) message.time = time;
  if ($('ponder').checked) message.ponder = true;
  if (!send(message)) return;
  app.sessionHasGame = true;
  toggleEditor(false);
  markOpenedGame(null);
  if ($('mode').value === 'analysis') send(analysisRequest(true));
  else if (app.state?.analysis?.on) send(analysisRequest(false));
}

// Analysis is a mode of the shown game: all players human, the engine thinking on whatever is
// shown. A game that has engines in it is continued as a new all-human game from the shown
// position, so that no engine is asked to move while it analyses.
function onModeChange() {
  const mode = $('mode').value;
  const before = app.mode;
  app.mode = mode;
  presetSeats();
  updateControlHints();
  const state = app.state;
  if (!state) return;
  if (mode === 'analysis' && before !== 'analysis') {
    if (state.players.some((player) => player !== 'human')) {
      const message = {
        type: 'new_game', variant: state.variant,
        players: state.players.map(() => 'human'), position: state.position,
      };
      if (!send(message)) return;
    }
    send(analysisRequest(true));
  } else if (mode !== 'analysis' && before === 'analysis') {
    // Sent even if the last state said "off": an `analyze on` may still be on its way.
    send(analysisRequest(false));
  }
}

// ---------------------------------------------------------------- PGN

function loadPgnText(text) {
  if (!text.trim()) {
    setStatus('Paste a PGN or open a file first.', 'error');
    return;
  }
  const message = { type: 'load_pgn', text };
  if (!fitsInOneMessage(message)) {
    setStatus(`The PGN is larger than the server takes in one message (${maxBytes()} bytes).`, 'error');
    return;
  }
  if (send(message)) setStatus('Reading the PGN…');
}

function renderPgnGames(games) {
  const list = $('pgn-games');
  list.replaceChildren();
  for (const game of games) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'pgn-game';
    button.dataset.gameIndex = String(game.index);
    const round = game.round ? `round ${game.round}, ` : '';
    button.textContent = `${game.white ?? '?'} – ${game.black ?? '?'}  ${game.result ?? '*'}  (${round}${game.variant ?? ''}, ${game.plies ?? '?'} plies)`;
    button.addEventListener('click', () => {
      if (send({ type: 'open_game', index: game.index })) markOpenedGame(game.index);
    });
    item.appendChild(button);
    list.appendChild(item);
  }
  setStatus(games.length ? `${games.length} game${games.length === 1 ? '' : 's'} in the PGN; click one to open it.`
    : 'No games found in the PGN.', games.length ? 'ok' : 'error');
}

function markOpenedGame(index) {
  document.querySelectorAll('#pgn-games .pgn-game').forEach((button) => {
    const opened = index !== null && Number(button.dataset.gameIndex) === index;
    button.classList.toggle('current', opened);
    if (opened) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  });
}

function onPgn(text) {
  $('pgn-output').value = text;
  if (app.pgnUrl) URL.revokeObjectURL(app.pgnUrl);
  app.pgnUrl = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  const link = $('pgn-download');
  link.href = app.pgnUrl;
  link.hidden = false;
  setStatus('The game as PGN is below; “Download quixo.pgn” saves it.', 'ok');
}

// ---------------------------------------------------------------- messages

function onMessage(message) {
  switch (message.type) {
    case 'hello': return onHello(message);
    case 'state': return onState(message);
    case 'info': return onInfo(message);
    case 'pgn': return onPgn(message.text ?? '');
    case 'pgn_games': return renderPgnGames(message.games ?? []);
    case 'error':
      app.requestedPly = null;  // a refused goto must not shift the next step
      return setStatus(`Server: ${message.message ?? 'error'}`, 'error');
    default: return undefined;  // unknown types are ignored, as the server ignores unknown fields
  }
}

// Each connection is a new session with no game: the page starts one at once, so that a person
// can move as soon as the page is open (by default a person as X against the first engine).
function onHello(hello) {
  app.hello = hello;
  app.connection.resetBackoff();
  fillEngineSelects();
  updateControlHints();
  if (hello.version !== PROTOCOL_VERSION) {
    setStatus(`The server speaks protocol version ${hello.version}; this page knows ${PROTOCOL_VERSION}.`, 'error');
  } else {
    setStatus('Connected.', 'ok');
  }
  if (!app.sessionHasGame) newGame();
}

// ---------------------------------------------------------------- keyboard

function onKeyDown(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  const tag = target?.tagName?.toLowerCase();
  if (tag === 'input' || tag === 'textarea' || tag === 'select' || target?.isContentEditable) return;
  if (event.key === 'Escape') {
    closePointChoice();
    app.selected = null;
    renderBoard();
    return;
  }
  const state = app.state;
  if (!state) return;
  let ply = null;
  if (event.key === 'ArrowLeft') ply = shownPly() - 1;
  else if (event.key === 'ArrowRight') ply = shownPly() + 1;
  else if (event.key === 'Home') ply = 0;
  else if (event.key === 'End') ply = state.moves.length;
  if (ply === null) return;
  event.preventDefault();
  const now = performance.now();
  if (event.repeat && now - app.lastNavAt < KEY_REPEAT_MS) return;
  app.lastNavAt = now;
  goto(ply);
}

// ---------------------------------------------------------------- start

function wireControls() {
  $('mode').addEventListener('change', onModeChange);
  $('variant').addEventListener('change', () => {
    presetSeats();
    updateControlHints();
  });
  for (const id of ['human-side', 'engine-1', 'engine-2']) {
    $(id).addEventListener('change', () => {
      presetSeats();
      // A different analysis engine takes over at once.
      if (id === 'engine-1' && $('mode').value === 'analysis' && app.state?.analysis?.on) {
        send(analysisRequest(true));
      }
    });
  }
  $('new-game').addEventListener('click', newGame);
  $('takeback').addEventListener('click', () => send({ type: 'takeback' }));
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    board.setFlipped(app.flipped);
    $('flip').setAttribute('aria-pressed', String(app.flipped));
    renderBoard();
  });
  $('think').addEventListener('click', () => {
    const engine = $('engine-1').value;
    send(engine ? { type: 'think', engine } : { type: 'think' });
  });
  $('stop').addEventListener('click', () => send({ type: 'stop' }));
  $('analysis-multipv').addEventListener('change', () => {
    if ($('mode').value === 'analysis') send(analysisRequest(true));
  });
  $('pass').addEventListener('click', () => sendMove('0000'));
  $('nav-start').addEventListener('click', () => goto(0));
  $('nav-back').addEventListener('click', () => goto(shownPly() - 1));
  $('nav-forward').addEventListener('click', () => goto(shownPly() + 1));
  $('nav-end').addEventListener('click', () => goto(app.state?.moves.length ?? 0));

  $('copy-position').addEventListener('click', copyPosition);
  $('setup-apply').addEventListener('click', applySetup);
  $('setup-position').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') applySetup();
  });
  // While editing, a typed position is shown on the board as soon as it reads.
  $('setup-position').addEventListener('input', () => {
    if (!app.editor) return;
    try {
      app.editor.load($('setup-position').value);
      $('edit-side').value = app.editor.side;
      renderBoard();
    } catch {
      // Half-typed: keep the last readable board.
    }
  });
  $('edit-board').addEventListener('click', () => toggleEditor(!app.editor));
  $('edit-side').addEventListener('change', () => {
    app.editor?.setSide($('edit-side').value);
    if (app.editor) editorChanged();
  });
  $('edit-clear').addEventListener('click', () => {
    app.editor?.clear();
    if (app.editor) editorChanged();
  });

  $('pgn-file').addEventListener('change', async () => {
    const file = $('pgn-file').files?.[0];
    if (!file) return;
    if (file.size > maxBytes()) {
      setStatus(`${file.name} is larger than the server takes in one message (${maxBytes()} bytes).`, 'error');
      return;
    }
    loadPgnText(await file.text());
  });
  $('pgn-load').addEventListener('click', () => loadPgnText($('pgn-text').value));
  $('save-pgn').addEventListener('click', () => send({ type: 'save_pgn' }));

  document.addEventListener('keydown', onKeyDown);
}

function start() {
  board = new BoardView($('board'), { onSquareClick });
  graph = new EvalGraph($('eval-graph'), { onGoto: goto });
  wireControls();
  updateControlHints();
  setInterval(() => {
    if (app.clock?.running !== null && app.clock?.running !== undefined) renderClocks();
  }, 100);
  if (location.protocol === 'file:') {
    setStatus('Open this page through quixo-gui (http://host:port/), not as a file.', 'error');
    return;
  }
  app.connection = new Connection(socketUrl(location), {
    onMessage,
    onOpen: () => {
      app.sessionHasGame = false;
      setStatus('Connected; waiting for the server…');
    },
    onClose: (retryMs) => {
      app.sessionHasGame = false;
      setStatus(`Connection to quixo-gui closed; reconnecting in ${Math.round(retryMs / 1000)} s…`, 'error');
    },
    onBadMessage: (text) => setStatus(`The server sent something that is not JSON: ${text}`, 'error'),
  });
  app.connection.connect();
}

// A hook for trying the page without a server: `window.quixoDebug.receive({type: 'state', ...})`
// feeds a message as if the server had sent it. It sends nothing and changes no behaviour.
window.quixoDebug = { receive: onMessage, app };

start();
