// The players and their clocks: one entry per side or seat, the one to move marked. The running
// clock counts down locally from the last state's remaining_ms; the next state brings the
// server's own figures.

import { $ } from './dom.js';
import { sidesOf, teamOfSide } from './notation.js';
import { playerTag } from './people.js';
import { formatClock, sideName } from './state.js';

const TICK_MS = 100;

let clock = null;  // {remaining, running, at} for the local countdown

export function init() {
  setInterval(() => {
    if (clock?.running !== null && clock?.running !== undefined) renderClocks();
  }, TICK_MS);
}

export function render(state) {
  const sides = sidesOf(state.variant);
  document.querySelectorAll('#players .player').forEach((item, index) => {
    const side = sides[index];
    item.hidden = side === undefined;
    if (side === undefined) return;
    item.classList.toggle('to-move', state.to_move === side && !state.result);
    item.classList.toggle('team-a', teamOfSide(side) === 'x');
    item.classList.toggle('team-b', teamOfSide(side) === 'o');
    $(`player-name-${index}`).textContent = `${sideName(side)}: ${playerTag(state, index)}`;
  });
  clock = state.clock
    ? { remaining: [...state.clock.remaining_ms], running: state.clock.running, at: performance.now() }
    : null;
  renderClocks();
}

function renderClocks() {
  for (let index = 0; index < 4; ++index) {
    const element = $(`clock-${index}`);
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
