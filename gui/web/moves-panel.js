// The moves panel: the move list and the evaluation graph over the game, and stepping through
// the game (a click on a move or the graph, the « ‹ › » buttons under the board, the arrow keys,
// Home and End), each a `goto`.

import { $, isPageKey } from './dom.js';
import { EvalGraph } from './graph.js';
import { seatOfLetter, sidesOf } from './notation.js';
import { moveParts } from './people.js';
import { graphPoints } from './score.js';
import { firstMoveColumn, moveDetails, movesKey } from './state.js';

const KEY_REPEAT_MS = 60;      // held arrow keys stay well under the server's 40 messages/s
const NAV_PENDING_MS = 1000;   // how long an unanswered goto counts as the shown ply

let page = null;
let graph = null;
let listKey = null;            // movesKey() of the game the list shows
let requestedPly = null;       // {ply, at}: the last goto sent, until a state answers it
let lastNavAt = 0;

export function init(context) {
  page = context;
  graph = new EvalGraph($('eval-graph'), { onGoto: goto });
  $('nav-start').addEventListener('click', () => goto(0));
  $('nav-back').addEventListener('click', () => goto(shownPly() - 1));
  $('nav-forward').addEventListener('click', () => goto(shownPly() + 1));
  $('nav-end').addEventListener('click', () => goto(page.state?.moves.length ?? 0));
  document.addEventListener('keydown', onKeyDown);
}

export function render(state) {
  requestedPly = null;
  renderMoveList(state);
  graph.render(graphPoints(state), state.moves.length, state.ply);
}

// A refused goto must not shift the next step.
export function forgetRequestedPly() {
  requestedPly = null;
}

function renderMoveList(state) {
  const list = $('move-list');
  const sides = sidesOf(state.variant);
  const key = movesKey(state);
  if (key !== listKey) {
    listKey = key;
    list.replaceChildren();
    // Rows of one move per side or seat, numbered; a game set up with O (or a later seat) to
    // move starts its first row with gaps.
    const first = firstMoveColumn(state);
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
      const parts = moveParts(move.move);
      button.textContent = parts.squares;
      if (parts.point) {
        const point = document.createElement('span');
        point.className = 'move-point';
        point.textContent = parts.point;
        point.title = `the cube points to seat ${seatOfLetter(parts.point)}`;
        button.appendChild(point);
      }
      button.title = moveDetails(move);
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
  const state = page.state;
  if (!state) return;
  const target = Math.max(0, Math.min(state.moves.length, ply));
  if (target === shownPly()) return;
  if (page.send({ type: 'goto', ply: target })) requestedPly = { ply: target, at: performance.now() };
}

// The ply to step from: the one last asked for while its state is still on its way, so that
// quick presses of an arrow key each go one further.
function shownPly() {
  if (requestedPly && performance.now() - requestedPly.at < NAV_PENDING_MS) return requestedPly.ply;
  return page.state?.ply ?? 0;
}

function onKeyDown(event) {
  if (!isPageKey(event)) return;
  const state = page.state;
  if (!state) return;
  let ply = null;
  if (event.key === 'ArrowLeft') ply = shownPly() - 1;
  else if (event.key === 'ArrowRight') ply = shownPly() + 1;
  else if (event.key === 'Home') ply = 0;
  else if (event.key === 'End') ply = state.moves.length;
  if (ply === null) return;
  event.preventDefault();
  const now = performance.now();
  if (event.repeat && now - lastNavAt < KEY_REPEAT_MS) return;
  lastNavAt = now;
  goto(ply);
}
