// The moves panel: the move list and the evaluation graph over the game, and stepping through
// the game (a click on a move or the graph, the « ‹ › » buttons under the board, the arrow keys,
// Home and End), each a `goto`.

import { analysisHoverText, graphHoverText, markSymbol } from './analysis.js';
import { $, isPageKey } from './dom.js';
import { EvalGraph } from './graph.js';
import { seatOfLetter } from './notation.js';
import { moveParts } from './people.js';
import { graphPoints } from './score.js';
import {
  isShownMove, moveDetails, moveListLayout, movesKey, pendingGoto,
} from './state.js';

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
  $('variation-promote').addEventListener('click', () => sendForShownNode('promote'));
  $('variation-delete').addEventListener('click', () => sendForShownNode('delete'));
  $('move-comment-save').addEventListener('click', () => {
    const node = page.state?.node;
    if (node) page.send({ type: 'comment', node, text: $('move-comment').value });
  });
}

function sendForShownNode(type) {
  const node = page.state?.node;
  if (node) page.send({ type, node });
}

export function render(state) {
  // Only the state that shows the ply asked for ends a pending goto: a reply to an earlier one
  // (quick key presses) must not make the next step start from an older ply.
  requestedPly = pendingGoto(requestedPly, state, performance.now(), NAV_PENDING_MS);
  renderMoveTools(state);
  renderMoveList(state);
  // Each point says its value on hover; a marked move's point is drawn in its mark's colour.
  const points = graphPoints(state).map((point) => ({ ...point, title: graphHoverText(state, point.ply - 1) }));
  graph.render(points, state.moves.length, state.ply);
}

// A refused goto must not shift the next step.
export function forgetRequestedPly() {
  requestedPly = null;
}

function renderMoveTools(state) {
  const inTree = Boolean(state.node);
  $('variation-promote').disabled = !inTree;
  $('variation-delete').disabled = !inTree;
  $('move-comment-save').disabled = !inTree;
  const comment = $('move-comment');
  if (document.activeElement !== comment || comment.dataset.node !== String(state.node ?? '')) {
    comment.dataset.node = String(state.node ?? '');
    comment.value = findComment(state.tree ?? [], state.node) ?? '';
  }
}

function findComment(line, node) {
  for (const entry of line) {
    if (entry.id === node) return entry.comment;
    for (const variation of entry.variations ?? []) {
      const found = findComment(variation, node);
      if (found !== null) return found;
    }
  }
  return null;
}

function moveButton(state, move, className) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = className;
  button.dataset.ply = String(move.ply);
  if (move.node !== null && move.node !== undefined) button.dataset.node = String(move.node);
  // Four-player moves: the point letter apart from the squares, so that e2e1O is not read as
  // e2e10.
  const parts = moveParts(move.text === 'pass' ? '0000' : move.text);
  button.textContent = parts.squares;
  if (parts.point) {
    const point = document.createElement('span');
    point.className = 'move-point';
    point.textContent = parts.point;
    point.title = `the cube points to seat ${seatOfLetter(parts.point)}`;
    button.appendChild(point);
  }
  const details = state.moves[move.ply - 1];
  if (details && (move.node === null || move.node === undefined || state.line?.[move.ply - 1] === move.node)) {
    button.title = moveDetails(details);
    // Whole-game analysis: the mark's symbol after the move (drawn by the style sheet, so that
    // the button's text stays the move) and the analysed value on hover.
    if (details.analysis) {
      button.title += `\n${analysisHoverText(state, move.ply - 1)}`;
      if (details.analysis.mark) {
        button.dataset.mark = details.analysis.mark;
        button.dataset.markSymbol = markSymbol(details.analysis.mark);
      }
    }
  }
  button.addEventListener('click', () => {
    if (move.node !== null && move.node !== undefined) gotoNode(move.node);
    else goto(move.ply);
  });
  return button;
}

function renderMoveList(state) {
  const list = $('move-list');
  const key = movesKey(state);
  if (key !== listKey) {
    listKey = key;
    list.replaceChildren();
    // Rows of one move per side or seat, numbered; a game set up with O (or a later seat) to
    // move starts its first row with gaps, and so does a row that goes on after variations.
    for (const item of moveListLayout(state)) {
      const element = document.createElement('li');
      if (item.kind === 'row') {
        element.className = 'move-row';
        element.dataset.number = String(item.number);
        for (let gap = item.gaps; gap > 0; --gap) {
          const spacer = document.createElement('span');
          spacer.className = 'move-gap';
          spacer.textContent = '…';
          element.appendChild(spacer);
        }
        for (const move of item.moves) element.appendChild(moveButton(state, move, 'move'));
      } else {
        element.className = 'move-notes';
        if (item.comment) element.appendChild(commentElement(item.comment));
        for (const tokens of item.lines) {
          const line = document.createElement('div');
          line.className = 'variation';
          for (const token of tokens) {
            if (token.kind === 'move') line.appendChild(moveButton(state, token, 'move variation-move'));
            else if (token.kind === 'comment') line.appendChild(commentElement(token.text));
            else {
              const mark = document.createElement('span');
              mark.className = 'variation-mark';
              mark.textContent = token.kind === 'open' ? '(' : ')';
              line.appendChild(mark);
            }
          }
          element.appendChild(line);
        }
      }
      list.appendChild(element);
    }
  }
  let current = null;
  list.querySelectorAll('.move').forEach((button) => {
    const node = button.dataset.node === undefined ? null : Number(button.dataset.node);
    const isCurrent = isShownMove(state, node, Number(button.dataset.ply));
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

function commentElement(text) {
  const span = document.createElement('span');
  span.className = 'move-comment';
  span.textContent = text;
  return span;
}

function gotoNode(node) {
  if (!page.state || node === page.state.node) return;
  if (page.send({ type: 'goto', node })) requestedPly = null;
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
