// The position panel: the shown position's string (with "Copy"), a position typed or pasted and
// sent with "Set up", and the board editor (editor.js), which draws on the board and is sent as
// a `setup` too. The editor lives in the page's shared `editor` while it is on, so that the
// board panel draws it and passes it the clicks on squares.

import { $ } from './dom.js';
import { BoardEditor } from './editor.js';
import { parsePosition, sidesOf } from './notation.js';
import { sideName } from './state.js';
import { setStatus } from './status.js';

let page = null;

export function init(context) {
  page = context;
  $('copy-position').addEventListener('click', copyPosition);
  $('setup-apply').addEventListener('click', applySetup);
  $('setup-position').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') applySetup();
  });
  // While editing, a typed position is shown on the board as soon as it reads.
  $('setup-position').addEventListener('input', () => {
    if (!page.editor) return;
    try {
      page.editor.load($('setup-position').value);
      $('edit-side').value = page.editor.side;
      page.redrawBoard();
    } catch {
      // Half-typed: keep the last readable board.
    }
  });
  $('edit-board').addEventListener('click', () => toggleEditor(!page.editor));
  $('edit-side').addEventListener('change', () => {
    page.editor?.setSide($('edit-side').value);
    if (page.editor) editorChanged();
  });
  $('edit-clear').addEventListener('click', () => {
    page.editor?.clear();
    if (page.editor) editorChanged();
  });
}

export function render(state) {
  $('position-text').value = state.position;
}

// The editor starts from the shown position; turned off, the board shows the game again.
export function toggleEditor(on) {
  const state = page.state;
  if (on && state) {
    page.editor = BoardEditor.fromPosition(state.position, state.variant);
    page.dropSelection();
    fillEditSides(page.editor.variant, page.editor.side);
    $('setup-position').value = page.editor.toString();
  } else {
    page.editor = null;
  }
  $('edit-board').setAttribute('aria-pressed', page.editor ? 'true' : 'false');
  $('edit-tools').hidden = !page.editor;
  $('edit-hint').hidden = !page.editor;
  page.redrawBoard();
}

// A square clicked in the editor, or its side or cubes changed: the string and the board follow.
export function editorChanged() {
  $('setup-position').value = page.editor.toString();
  page.redrawBoard();
}

function fillEditSides(variant, side) {
  const select = $('edit-side');
  select.replaceChildren(...sidesOf(variant).map((value) => new Option(sideName(value), value)));
  select.value = side;
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
  if (page.send({ type: 'setup', position })) toggleEditor(false);
}

async function copyPosition() {
  const text = page.state?.position ?? '';
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
