// The endgame tables panel, shown when `state.tb` is there: the shown position's exact value and
// every legal move's, the best first; a click on a move plays it when a person may move.

import { $ } from './dom.js';
import { sortedTbMoves, tbValueText } from './state.js';

let page = null;

export function init(context) {
  page = context;
}

export function render(state) {
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
  value.textContent = tbValueText(state);
  value.className = `tb-value tb-${tb.value}`;
  value.dataset.value = tb.value;
  value.dataset.distance = tb.distance ?? '';
  for (const entry of sortedTbMoves(tb)) {
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
      if (page.state?.human_to_move) page.sendMove(entry.move);
    });
    item.appendChild(button);
    list.appendChild(item);
  }
}
