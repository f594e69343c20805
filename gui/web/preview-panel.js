// The line preview: a click on an analysis line shows its moves on the board, one step at a time
// (the bar under the board, or Left / Right while it is open), without changing the game; "Back
// to the game" or Esc returns, "Play to here" enters the line's moves up to the step shown
// (`play_line`: as far as a person is to move). The server plays the line for the positions
// (`preview`), so the page still knows no rules. Any change of the shown position ends a preview.

import { $, isPageKey } from './dom.js';
import { pvText } from './state.js';

let page = null;

export function init(context) {
  page = context;
  $('preview-back').addEventListener('click', () => step(-1));
  $('preview-forward').addEventListener('click', () => step(1));
  $('preview-exit').addEventListener('click', exit);
  $('preview-play').addEventListener('click', play);
  // Capturing, so that while a line is shown the arrow keys step through it, not the game.
  document.addEventListener('keydown', onKeyDown, true);
}

// Starts previewing analysis line `multipv` of the shown position.
export function start(multipv) {
  const state = page.state;
  const line = page.analysis.get(multipv);
  if (!state || !line?.pv?.length) return;
  page.preview = {
    multipv, ply: state.ply, position: state.position, moves: [...line.pv], positions: null, step: 1,
  };
  page.send({ type: 'preview', moves: line.pv });
  show();
}

export function active() {
  return Boolean(page?.preview);
}

// The server's `preview` answer: the positions along the line.
export function onPreview(message) {
  const preview = page.preview;
  if (!preview || message.ply !== preview.ply) return;
  preview.moves = message.moves ?? [];
  preview.positions = message.positions ?? [];
  preview.step = Math.min(preview.step, preview.positions.length);
  show();
}

// A refused preview (an illegal move in the line) ends it.
export function onError() {
  if (page.preview && !page.preview.positions) exit();
}

export function render(state) {
  if (page.preview && !sameBase(page.preview, state)) page.preview = null;
  show(false);
}

// Whether the game still shows the position the line starts from.
function sameBase(preview, state) {
  return Boolean(state) && state.ply === preview.ply && state.position === preview.position;
}

// What the board draws while previewing: the position after `step` moves of the line and the
// move that led there, and the line's moves still to come; null when no preview is shown.
export function shownPreview() {
  const preview = page?.preview;
  if (!preview?.positions || !sameBase(preview, page.state)) return null;
  return {
    position: preview.step > 0 ? preview.positions[preview.step - 1] : preview.position,
    lastMove: preview.step > 0 ? preview.moves[preview.step - 1] : null,
    nextMoves: preview.moves.slice(preview.step),
  };
}

function step(delta) {
  const preview = page.preview;
  if (!preview?.positions) return;
  preview.step = Math.max(0, Math.min(preview.positions.length, preview.step + delta));
  show();
}

function exit() {
  page.preview = null;
  show();
}

function play() {
  const preview = page.preview;
  if (!preview?.positions || preview.step === 0) return;
  if (page.send({ type: 'play_line', moves: preview.moves.slice(0, preview.step) })) exit();
}

function show(redraw = true) {
  const bar = $('line-preview');
  const preview = page.preview;
  bar.hidden = !preview;
  if (preview) {
    const total = preview.positions?.length ?? preview.moves.length;
    const done = preview.moves.slice(0, preview.step);
    const rest = preview.moves.slice(preview.step);
    $('preview-text').textContent = `Line ${preview.multipv}: ${pvText(done)}`;
    $('preview-rest').textContent = rest.length ? ` ${pvText(rest)}` : '';
    $('preview-step').textContent = preview.positions ? `${preview.step} / ${total}` : '…';
    $('preview-back').disabled = !preview.positions || preview.step === 0;
    $('preview-forward').disabled = !preview.positions || preview.step >= total;
    $('preview-play').disabled = !preview.positions || preview.step === 0;
  }
  if (redraw) page.redrawBoard();
}

function onKeyDown(event) {
  if (!page.preview || !isPageKey(event) || event.shiftKey) return;
  const keys = {
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    Home: () => step(-Infinity),
    End: () => step(Infinity),
    Escape: exit,
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  event.stopPropagation();
  action();
}
