// The PGN panel: a PGN file or pasted text sent as `load_pgn`, the list of its games (the
// `pgn_games` answer; a click opens one), and "Save this game" (the `pgn` answer, shown and
// offered as a download). It draws from those two answers, not from `state`.

import { $ } from './dom.js';
import { setStatus } from './status.js';

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

let page = null;
let pgnUrl = null;  // the download link's object URL

export function init(context) {
  page = context;
  $('pgn-file').addEventListener('change', async () => {
    const file = $('pgn-file').files?.[0];
    if (!file) return;
    if (file.size > maxBytes()) {
      setStatus(`${file.name} is larger than the server takes in one message (${maxBytes()} bytes).`, 'error');
      return;
    }
    loadPgnText(await file.text());
  });
  $('pgn-load').addEventListener('click', () => loadPgnText($('pgn-text').value));
  $('save-pgn').addEventListener('click', () => page.send({ type: 'save_pgn' }));
}

// The `pgn_games` answer.
export function showGames(games) {
  const list = $('pgn-games');
  list.replaceChildren();
  for (const game of games) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'pgn-game';
    button.dataset.gameIndex = String(game.index);
    const round = game.round ? `round ${game.round}, ` : '';
    button.textContent = `${game.white ?? '?'} – ${game.black ?? '?'}  ${game.result ?? '*'}  (${round}${game.variant ?? ''}, ${game.plies ?? '?'} plies)`;
    button.addEventListener('click', () => {
      if (page.send({ type: 'open_game', index: game.index })) markOpenedGame(game.index);
    });
    item.appendChild(button);
    list.appendChild(item);
  }
  setStatus(games.length ? `${games.length} game${games.length === 1 ? '' : 's'} in the PGN; click one to open it.`
    : 'No games found in the PGN.', games.length ? 'ok' : 'error');
}

// The `pgn` answer.
export function showPgn(text) {
  $('pgn-output').value = text;
  if (pgnUrl) URL.revokeObjectURL(pgnUrl);
  pgnUrl = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  const link = $('pgn-download');
  link.href = pgnUrl;
  link.hidden = false;
  setStatus('The game as PGN is below; “Download quixo.pgn” saves it.', 'ok');
}

// Marks the game of the list that is open (null: none, after a new game).
export function markOpenedGame(index) {
  document.querySelectorAll('#pgn-games .pgn-game').forEach((button) => {
    const opened = index !== null && Number(button.dataset.gameIndex) === index;
    button.classList.toggle('current', opened);
    if (opened) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  });
}

function maxBytes() {
  return page.hello?.max_message_bytes ?? DEFAULT_MAX_BYTES;
}

function fitsInOneMessage(message) {
  return new TextEncoder().encode(JSON.stringify(message)).length <= maxBytes();
}

function loadPgnText(text) {
  if (!text.trim()) {
    setStatus('Paste a PGN or open a file first.', 'error');
    return;
  }
  const message = { type: 'load_pgn', text };
  if (!fitsInOneMessage(message)) {
    setStatus(`The PGN is larger than the server takes in one message (${maxBytes()} bytes).`, 'error');
    return;
  }
  if (page.send(message)) setStatus('Reading the PGN…');
}
