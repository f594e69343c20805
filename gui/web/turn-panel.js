// The turn line above the board: who is to move (or that the game is over), the result, and
// which engine is thinking or pondering.

import { $ } from './dom.js';
import { turnTexts } from './state.js';

export function render(state) {
  const texts = turnTexts(state);
  $('to-move-text').textContent = texts.toMove;
  $('result-text').textContent = texts.result;
  $('thinking-text').textContent = texts.thinking;
}
