// The PGN panel: a PGN file or pasted text sent as `load_pgn`, the list of its games (the
// `pgn_games` answer; a click opens one), and "Save this game" (the `pgn` answer, shown and
// offered as a download). It draws from those two answers, not from `state`.

import { $ } from './dom.js';
import { pgnParts } from './people.js';
import { setStatus } from './status.js';

let page = null;
let pgnUrl = null;  // the download link's object URL
let listing = { total: 0, matched: 0, offset: 0 };  // the last pgn_games answer
let filterTimer = null;

const PAGE_SIZE = 100;             // games per page of the list
const PART_CHARS = 1000 * 1000;    // a long PGN goes in parts of this many characters
const PARTS_AT_ONCE = 30;          // then one part every PART_PACE_MS
const PART_PACE_MS = 40;
const MAX_PGN_BYTES = 256 * 1024 * 1024;  // what the server reads in all (docs/gui-protocol.md)

export function init(context) {
  page = context;
  $('pgn-file').addEventListener('change', async () => {
    const file = $('pgn-file').files?.[0];
    if (!file) return;
    if (file.size > MAX_PGN_BYTES) {
      setStatus(`${file.name} is larger than quixo-gui reads (${MAX_PGN_BYTES} bytes).`, 'error');
      return;
    }
    loadPgnText(await file.text());
  });
  $('pgn-load').addEventListener('click', () => loadPgnText($('pgn-text').value));
  $('pgn-player').addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => listGames(0), 250);
  });
  $('pgn-result').addEventListener('change', () => listGames(0));
  $('pgn-prev').addEventListener('click', () => listGames(Math.max(0, listing.offset - PAGE_SIZE)));
  $('pgn-next').addEventListener('click', () => listGames(listing.offset + PAGE_SIZE));
  $('save-pgn').addEventListener('click', () => page.send({ type: 'save_pgn' }));
}

// The `pgn_games` answer: one page of the loaded games that pass the filter, as a table.
export function showGames(message) {
  const games = message.games ?? [];
  listing = {
    total: message.total ?? games.length,
    matched: message.matched ?? games.length,
    offset: message.offset ?? 0,
  };
  const table = document.createElement('table');
  table.className = 'pgn-table';
  const head = table.createTHead().insertRow();
  for (const title of ['#', 'Round', 'White', 'Black', 'Result', 'Plies', 'Variant']) {
    const cell = document.createElement('th');
    cell.scope = 'col';
    cell.textContent = title;
    head.appendChild(cell);
  }
  const body = table.createTBody();
  for (const game of games) {
    const row = body.insertRow();
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'pgn-game';
    open.dataset.gameIndex = String(game.index);
    open.textContent = String(game.index + 1);
    open.title = 'Open this game';
    open.addEventListener('click', () => {
      if (page.send({ type: 'open_game', index: game.index })) markOpenedGame(game.index);
    });
    row.insertCell().appendChild(open);
    for (const text of [game.round ?? '', game.white ?? '?', game.black ?? '?', game.result ?? '*',
      String(game.plies ?? '?'), game.variant ?? '']) {
      row.insertCell().textContent = text;
    }
  }
  $('pgn-games').replaceChildren(table);
  $('pgn-filter').hidden = listing.total <= PAGE_SIZE && !filtered();
  const last = Math.min(listing.offset + games.length, listing.matched);
  $('pgn-page').textContent = listing.matched
    ? `${listing.offset + 1}–${last} of ${listing.matched}${listing.matched !== listing.total ? ` (of ${listing.total})` : ''}`
    : `none of ${listing.total}`;
  $('pgn-prev').disabled = listing.offset === 0;
  $('pgn-next').disabled = last >= listing.matched;
  setStatus(listing.total ? `${listing.total} game${listing.total === 1 ? '' : 's'} in the PGN; click a number to open one.`
    : 'No games found in the PGN.', listing.total ? 'ok' : 'error');
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
    button.closest('tr')?.classList.toggle('current', opened);
    if (opened) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  });
}

function filtered() {
  return Boolean($('pgn-player').value.trim() || $('pgn-result').value);
}

// A page of the loaded games through the filter, from `offset`.
function listGames(offset) {
  const message = { type: 'pgn_list', offset, limit: PAGE_SIZE };
  const player = $('pgn-player').value.trim();
  if (player) message.player = player;
  if ($('pgn-result').value) message.result = $('pgn-result').value;
  page.send(message);
}

// The text as `load_pgn`, in parts when it is long (the server puts them together), paced to
// stay under the server's 40 messages a second.
async function loadPgnText(text) {
  if (!text.trim()) {
    setStatus('Paste a PGN or open a file first.', 'error');
    return;
  }
  $('pgn-player').value = '';
  $('pgn-result').value = '';
  const parts = pgnParts(text, PART_CHARS);
  setStatus(parts.length > 1 ? `Sending the PGN (${parts.length} parts)…` : 'Reading the PGN…');
  for (const [index, part] of parts.entries()) {
    if (index >= PARTS_AT_ONCE) await new Promise((resolve) => setTimeout(resolve, PART_PACE_MS));
    if (!page.send(part)) return;
  }
  if (parts.length > 1) setStatus('Reading the PGN…');
}
