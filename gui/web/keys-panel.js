// Moves from the keyboard. A move typed in the move field (`b1e1`, `b1-e1`, `pass`; four players
// `b1e1X` with the cube's point) and Enter; typing a file letter a–e anywhere on the page starts
// one there. And a cursor on the board: Shift + an arrow key moves the keyboard focus from square
// to square (plain arrows keep stepping through the game), Enter or Space takes the cube under it
// and pushes it in at a lit end, Esc drops it.

import { cursorStep, parseTypedMove } from './analysis.js';
import { $, isPageKey } from './dom.js';
import { setStatus } from './status.js';

let page = null;

export function init(context) {
  page = context;
  const field = $('move-input');
  field.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    playTyped();
  });
  $('move-input-play').addEventListener('click', playTyped);
  // Capturing, so that Shift + arrow moves the cursor before the game's arrow keys see it.
  document.addEventListener('keydown', onCursorKey, true);
  document.addEventListener('keydown', onLetter);
}

export function render() {}

function playTyped() {
  const state = page.state;
  const field = $('move-input');
  if (!state) return;
  if (!state.human_to_move) {
    setStatus(state.result && state.ply === state.moves.length
      ? 'The game is over.' : 'It is not a person’s turn to move.', 'error');
    return;
  }
  const typed = parseTypedMove(field.value, state.legal);
  if (typed.error) {
    setStatus(typed.error, 'error');
    return;
  }
  page.sendMove(typed.move);
  field.value = '';
}

function onCursorKey(event) {
  if (!event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
  if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key)) return;
  if (!isPageKey(event)) return;
  event.preventDefault();
  event.stopPropagation();
  const focused = document.activeElement?.closest?.('#board [data-square]');
  const next = cursorStep(focused?.dataset.square ?? null, event.key, page.isFlipped());
  page.focusSquare(next);
}

function onLetter(event) {
  if (!isPageKey(event) || event.shiftKey || !/^[a-e]$/.test(event.key)) return;
  if (page.editor) return;
  const field = $('move-input');
  event.preventDefault();
  field.value = event.key;
  field.focus();
}
