// The board panel: the board (board.js draws it) with the person's moves made on it by clicking
// (take a cube, push it in at a lit end), the point choice of a four-player push, the pass
// button, and the "Flip board" button. Which cubes may be taken and where they may go come from
// `state.legal`; the board editor (the set-up panel's) draws on the same board while it is on.

import { bestMoveArrows } from './analysis.js';
import { BoardView } from './board.js';
import { $, isPageKey } from './dom.js';
import { parseMove, parsePosition, partnerOfSeat, seatOfLetter } from './notation.js';
import {
  arrowsOfLine, arrowsOfLines, isForcedPass, positionChanged, seatTags, slideBetween, takeableSquares, targetsOf,
} from './state.js';
import { winningSquares } from './people.js';
import { setStatus } from './status.js';

let page = null;
let board = null;
let shown = null;          // the state last drawn by render()
let selected = null;       // the square of the cube picked up
let flipped = false;

export function init(context) {
  page = context;
  board = new BoardView($('board'), { onSquareClick });
  $('flip').addEventListener('click', () => {
    flipped = !flipped;
    board.setFlipped(flipped);
    $('flip').setAttribute('aria-pressed', String(flipped));
    redraw();
  });
  $('pass').addEventListener('click', () => sendMove('0000'));
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isPageKey(event)) return;
    dropSelection();
    redraw();
  });
}

// A new state: a cube picked up is dropped when the position changed or the person may not move;
// a move of one ply along the game slides its cubes.
export function render(state) {
  const previous = shown;
  shown = state;
  if (previous !== state && (positionChanged(previous, state) || !state.human_to_move)) dropSelection();
  draw(previous !== state ? slideBetween(previous, state) : null);
  $('pass').hidden = !(state.human_to_move && isForcedPass(state));
}

// The same state drawn again (a selection, the editor, the flip changed).
export function redraw() {
  draw(null);
}

// Only the analysis arrows, as a new analysis line arrives.
export function drawArrows() {
  if (!page.editor) board.drawArrows(analysisArrows(page.state));
}

export function dropSelection() {
  closePointChoice();
  selected = null;
}

export function sendMove(move) {
  if (page.send({ type: 'move', move })) {
    selected = null;
    closePointChoice();
    redraw();
  }
}

// Whether the board is drawn flipped (the keyboard cursor moves as the person sees it).
export function isFlipped() {
  return flipped;
}

// Gives the keyboard focus to a square (the keyboard cursor).
export function focusSquare(square) {
  document.querySelector(`#board [data-square="${square}"]`)?.focus();
}

// One arrow per analysis line's first move, coloured by the line's rank (the best strongest);
// while a line is previewed, its next moves (the first strongest); without analysis, after a
// marked move, the move that was best.
function analysisArrows(state) {
  if (page.editor) return [];
  const preview = page.shownPreview();
  if (preview) return arrowsOfLine({ pv: preview.nextMoves });
  // Without live analysis, after a move that whole-game analysis marked: the better move.
  if (!state?.analysis?.on) return bestMoveArrows(state);
  return arrowsOfLines(page.analysis);
}

function draw(slide) {
  const state = page.state;
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
  if (page.editor) {
    board.render({ cells: page.editor.cells, variant: page.editor.variant, editing: true });
    return;
  }
  if (!state) return;
  // A previewed analysis line: its position, nothing to take (the game is not changed).
  const preview = page.shownPreview();
  svg.dataset.previewPosition = preview?.position ?? '';
  if (preview) {
    const previewMove = parseMove(preview.lastMove);
    let previewCells = new Array(25).fill('');
    try {
      previewCells = parsePosition(preview.position).cells;
    } catch (error) {
      setStatus(`The server sent a position the page cannot read: ${error.message}`, 'error');
    }
    board.render({
      cells: previewCells,
      variant: state.variant,
      lastMove: previewMove && !previewMove.pass ? previewMove : null,
      arrows: analysisArrows(state),
      seats: state.variant === '4p' ? seatTags(state) : null,
      preview: true,
    });
    return;
  }
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
    selected,
    targets: targetsOf(state, selected),
    lastMove: lastMove && !lastMove.pass ? lastMove : null,
    arrows: analysisArrows(state),
    seats: state.variant === '4p' ? seatTags(state) : null,
    slide,
    winning: new Set(winningSquares(state.position)),
  });
}

function onSquareClick(square) {
  if (page.editor) {
    page.editor.cycle(square);
    page.editorChanged();
    return;
  }
  const state = page.state;
  if (!state) return;
  if (page.shownPreview()) {
    setStatus('A line is shown: “Back to the game” (or Esc) returns to the game, “Play to here” plays it.');
    return;
  }
  if (!state.human_to_move) {
    if (state.thinking) setStatus(`${state.thinking.engine} is thinking; “Stop” makes it move now.`);
    return;
  }
  closePointChoice();
  const targets = targetsOf(state, selected);
  if (selected && targets.has(square)) {
    chooseMove(selected, square);
  } else if (takeableSquares(state).has(square) && selected !== square) {
    selected = square;
  } else {
    selected = null;
  }
  redraw();
}

function chooseMove(from, to) {
  const moves = page.state.legal.filter((move) => move.from === from && move.to === to);
  if (moves.length === 1) {
    sendMove(moves[0].move);
  } else if (moves.length > 1) {
    openPointChoice(from, to, moves);
  }
}

// Four players: the same push with the point toward the mover or toward the partner.
function openPointChoice(from, to, moves) {
  const box = $('point-choice');
  box.replaceChildren();
  const mover = Number(page.state.to_move);
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
    selected = null;
    redraw();
  });
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector('button')?.focus();
}

function closePointChoice() {
  const box = $('point-choice');
  box.hidden = true;
  box.replaceChildren();
}
