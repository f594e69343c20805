// The recent games panel: the games the server saved (the `recent_games` answer), the newest
// first; a click sends `resume` and the game goes on where it was left. Shown only when the
// server saves games (`hello.saves_games`).

import { $ } from './dom.js';
import { recentGameText } from './state.js';
import { setStatus } from './status.js';

let page = null;
let shownGameId = null;

export function init(context) {
  page = context;
  $('recent-refresh').addEventListener('click', request);
}

// Asks for the list again (after hello, and when another game starts).
export function request() {
  if (page.hello?.saves_games) page.send({ type: 'recent_games' });
}

export function render(state) {
  $('recent-box').hidden = !page.hello?.saves_games;
  if (state.game_id && state.game_id !== shownGameId) {
    shownGameId = state.game_id;
    request();
  }
  markCurrent();
}

// The `recent_games` answer.
export function showRecent(message) {
  const list = $('recent-games');
  list.replaceChildren();
  for (const game of message.games ?? []) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'recent-game';
    button.dataset.gameId = game.id;
    button.textContent = recentGameText(game);
    button.addEventListener('click', () => page.send({ type: 'resume', game_id: game.id }));
    item.appendChild(button);
    list.appendChild(item);
  }
  markCurrent();
  const problems = message.problems ?? [];
  if (problems.length) setStatus(`Some saved games could not be read: ${problems.join('; ')}`, 'error');
}

function markCurrent() {
  document.querySelectorAll('#recent-games .recent-game').forEach((button) => {
    button.classList.toggle('current', button.dataset.gameId === page.state?.game_id);
  });
}
