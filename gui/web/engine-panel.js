// The engine panel: the analysis lines of the shown position, each engine's latest line while it
// plays or ponders, and the evaluation bar beside the board; the analysis line count follows the
// server's. Scores are shown from X's (team A's) side. The lines themselves are kept in the
// page's shared maps (app.js), which the board's arrows read too.

import { $ } from './dom.js';
import { barFraction, formatScore } from './score.js';
import { currentScoreForX, infoText, pvText, sideAtPly, withoutNulls } from './state.js';

let page = null;
let shown = null;  // the state last drawn by render()

export function init(context) {
  page = context;
}

export function render(state) {
  syncMultipv(shown, state);
  shown = state;
  renderEvalBar();
  renderAnalysis();
  renderInfoLines();
}

// One `info` message: a line of the analysis of the shown position, or of an engine's search.
export function onInfo(info) {
  const state = page.state;
  if (!state) return;
  if (info.purpose === 'analysis') {
    if (info.ply !== state.ply) return;  // about a position no longer shown
    if (!info.score && !info.pv) return;  // a bare `string` or currmove line
    page.analysis.set(info.multipv ?? 1, { ...page.analysis.get(info.multipv ?? 1), ...withoutNulls(info) });
    renderAnalysis();
    page.drawArrows();
  } else {
    const engine = info.engine ?? 'engine';
    page.engineInfo.set(engine, { ...page.engineInfo.get(engine), ...withoutNulls(info) });
    renderInfoLines();
  }
  renderEvalBar();
}

// The analysis line count follows the server's, unless the person is typing in the field.
function syncMultipv(previous, state) {
  const multipv = state.analysis?.multipv;
  const field = $('analysis-multipv');
  if (!multipv || previous?.analysis?.multipv === multipv || document.activeElement === field) return;
  field.value = String(multipv);
}

function renderEvalBar() {
  const score = currentScoreForX(page.state, page.analysis, page.engineInfo);
  const fraction = barFraction(score);
  $('eval-bar-fill').style.height = `${(fraction * 100).toFixed(1)}%`;
  $('eval-bar-text').textContent = score ? formatScore(score) : '';
  const bar = $('eval-bar');
  bar.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
  bar.setAttribute('aria-valuetext', score ? `${formatScore(score)} for X` : 'no score');
  bar.dataset.score = score ? formatScore(score) : '';
}

function renderAnalysis() {
  const list = $('analysis-lines');
  list.replaceChildren();
  const state = page.state;
  if (!state) return;
  const side = state.to_move;
  for (const [rank, multipv] of [...page.analysis.keys()].sort((a, b) => a - b).entries()) {
    const info = page.analysis.get(multipv);
    const item = document.createElement('li');
    item.dataset.multipv = String(multipv);
    // A click (or Enter) shows the line on the board (preview-panel.js); its colour is its
    // arrow's on the board.
    item.className = `analysis-line rank-${Math.min(rank, 4)}`;
    item.tabIndex = 0;
    item.title = 'Show this line on the board';
    // On the press, not the click: the list is redrawn with every info line, which may replace
    // the element between the press and the release.
    item.addEventListener('mousedown', (event) => {
      if (event.button === 0) page.startPreview(multipv);
    });
    item.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      page.startPreview(multipv);
    });
    const head = document.createElement('span');
    head.className = 'info-head';
    head.textContent = infoText(info, side);
    const pv = document.createElement('span');
    pv.className = 'pv';
    pv.textContent = pvText(info.pv);
    item.append(head, pv);
    list.appendChild(item);
  }
  if (state.analysis?.on && page.analysis.size === 0) {
    const item = document.createElement('li');
    item.className = 'waiting';
    item.textContent = 'Analysing…';
    list.appendChild(item);
  }
}

function renderInfoLines() {
  const list = $('info-lines');
  list.replaceChildren();
  const state = page.state;
  if (!state) return;
  for (const [engine, info] of page.engineInfo) {
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
