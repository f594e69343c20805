// The whole-game analysis box: the time per move, "Analyse the game" and "Cancel", the progress
// bar (the server's `game_analysis` messages) and the per-side summary of the marks (from the
// moves' `analysis`, so it also shows a game analysed earlier). The marks themselves are drawn in
// the move list and on the evaluation graph (moves-panel.js, graph.js).

import { MARKS, analysisSummary, movetimeMs } from './analysis.js';
import { $ } from './dom.js';

let page = null;

export function init(context) {
  page = context;
  $('game-analysis-start').addEventListener('click', start);
  $('game-analysis-cancel').addEventListener('click', () => page.send({ type: 'analyze_game', on: false }));
}

function start() {
  const message = { type: 'analyze_game', on: true, movetime_ms: movetimeMs($('game-analysis-time').value) };
  const engine = $('engine-1').value;
  if (engine) message.engine = engine;
  page.send(message);
}

// A new connection is a new session: no run goes on.
export function reset() {
  $('game-analysis-start').disabled = false;
  $('game-analysis-cancel').hidden = true;
  $('game-analysis-progress').hidden = true;
  $('game-analysis-progress-text').textContent = '';
}

// A `game_analysis` message: the run's progress.
export function onProgress(message) {
  const bar = $('game-analysis-progress');
  const total = Math.max(1, message.total ?? 1);
  const done = Math.min(total, message.done ?? 0);
  bar.max = total;
  bar.value = done;
  bar.dataset.done = String(done);
  bar.dataset.total = String(total);
  bar.dataset.running = message.running ? 'true' : 'false';
  bar.hidden = false;
  const percent = Math.round((100 * done) / total);
  $('game-analysis-progress-text').textContent = message.running
    ? `Analysing: ${done} of ${total} positions (${percent} %)`
    : message.cancelled ? `Cancelled after ${done} of ${total} positions.`
      : `Analysed ${total} positions (100 %)${message.engine ? `, ${message.engine} at ${(message.movetime_ms / 1000).toFixed(2)} s a move` : ', tables only'}.`;
  $('game-analysis-start').disabled = Boolean(message.running);
  $('game-analysis-cancel').hidden = !message.running;
}

export function render(state) {
  const rows = analysisSummary(state);
  const table = $('game-analysis-summary');
  const body = table.querySelector('tbody');
  body.replaceChildren();
  table.hidden = rows.every((row) => row.moves === 0);
  for (const row of rows) {
    const line = document.createElement('tr');
    line.dataset.side = row.side;
    const name = document.createElement('th');
    name.scope = 'row';
    name.textContent = row.name;
    line.appendChild(name);
    for (const mark of Object.keys(MARKS)) {
      const cell = document.createElement('td');
      cell.dataset.mark = mark;
      cell.textContent = String(row[mark]);
      line.appendChild(cell);
    }
    const loss = document.createElement('td');
    loss.dataset.mark = 'average';
    loss.textContent = row.averageCpLoss === null ? '–' : String(row.averageCpLoss);
    line.appendChild(loss);
    body.appendChild(line);
  }
}
