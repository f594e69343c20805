// The page's entry: the connection to quixo-gui, what the panels share, and each `state` the
// server sends handed to every panel to draw. The server owns the game (docs/gui-protocol.md):
// the page sends intentions (a move, new_game, goto, ...) and draws what comes back, so nothing
// here knows the rules; which cubes may be taken and where they may go come from `state.legal`.
//
// Each panel is a module with init(page) (its controls' listeners) and render(state) (its part
// of the page drawn from a state); the few things one panel asks of another go through `page`.

import * as analysisPanel from './analysis-panel.js';
import * as boardPanel from './board-panel.js';
import * as clocksPanel from './clocks-panel.js';
import { Connection, socketUrl } from './connection.js';
import { LocalConnection, staticSite } from './local-connection.js';
import * as enginePanel from './engine-panel.js';
import * as gamePanel from './game-panel.js';
import * as keysPanel from './keys-panel.js';
import * as movesPanel from './moves-panel.js';
import * as peoplePanel from './people-panel.js';
import { staleInfoEngines } from './people.js';
import * as pgnPanel from './pgn-panel.js';
import * as recentPanel from './recent-panel.js';
import * as previewPanel from './preview-panel.js';
import * as setupPanel from './setup-panel.js';
import * as sitePanel from './site-panel.js';
import {
  completeState, freshGame, gameIdToKeep, positionChanged, SAVED_GAME_KEY,
} from './state.js';
import { noteRequest, noteSuccess, setStatus } from './status.js';
import * as tbPanel from './tb-panel.js';
import * as turnPanel from './turn-panel.js';

const PROTOCOL_VERSION = 1;      // docs/gui-protocol.md, `hello.version`

// Drawn in this order from every state: the controls first follow a game they do not describe.
const PANELS = [gamePanel, boardPanel, turnPanel, clocksPanel, movesPanel, enginePanel, tbPanel, setupPanel,
  recentPanel, previewPanel, analysisPanel, keysPanel, peoplePanel];

let connection = null;

// What the panels share: the server's messages as last received, the page's own choices, and
// the actions of one panel that another starts.
const page = {
  hello: null,
  state: null,               // the last state, completed (state.js)
  sessionHasGame: false,     // this connection has asked for or been sent a game
  resuming: false,           // a `resume` of the stored game is on its way
  editor: null,              // a BoardEditor while the board is being edited
  analysis: new Map(),       // multipv -> latest analysis info for the shown position
  engineInfo: new Map(),     // engine name -> its latest info while it thinks about a move
  send,
  redrawBoard: () => boardPanel.redraw(),
  drawArrows: () => boardPanel.drawArrows(),
  dropSelection: () => boardPanel.dropSelection(),
  sendMove: (move) => boardPanel.sendMove(move),
  editorChanged: () => setupPanel.editorChanged(),
  toggleEditor: (on) => setupPanel.toggleEditor(on),
  markOpenedGame: (index) => pgnPanel.markOpenedGame(index),
  preview: null,             // an analysis line shown on the board (preview-panel.js)
  startPreview: (multipv) => previewPanel.start(multipv),
  shownPreview: () => previewPanel.shownPreview(),
  isFlipped: () => boardPanel.isFlipped(),
  focusSquare: (square) => boardPanel.focusSquare(square),
};

function send(message) {
  if (!connection?.send(message)) {
    setStatus('Not connected to quixo-gui; the page reconnects by itself.', 'error');
    return false;
  }
  noteRequest();
  return true;
}

// ---------------------------------------------------------------- messages

function onMessage(message) {
  switch (message.type) {
    case 'hello': return onHello(message);
    case 'state': return onState(message);
    case 'info': return enginePanel.onInfo(message);
    case 'pgn':
      noteSuccess();
      return pgnPanel.showPgn(message.text ?? '');
    case 'pgn_games':
      noteSuccess();
      return pgnPanel.showGames(message);
    case 'recent_games': return recentPanel.showRecent(message);
    case 'game_analysis': return analysisPanel.onProgress(message);
    case 'preview': return previewPanel.onPreview(message);
    case 'engine_options':
      noteSuccess();
      return peoplePanel.onEngineOptions(message);
    case 'warning': return setStatus(`Warning: ${message.message ?? ''}`, 'warning');
    case 'error':
      previewPanel.onError();
      if (page.resuming) return resumeFailed(message.message ?? 'error');
      movesPanel.forgetRequestedPly();  // a refused goto must not shift the next step
      peoplePanel.onError();
      return setStatus(`Server: ${message.message ?? 'error'}`, 'error');
    default: return undefined;  // unknown types are ignored, as the server ignores unknown fields
  }
}

// Each connection is a new session with no game: the page starts one at once, so that a person
// can move as soon as the page is open (by default a person as X against the first engine).
function onHello(hello) {
  page.hello = hello;
  connection.resetBackoff();
  analysisPanel.reset();
  gamePanel.showEngines();
  if (hello.version !== PROTOCOL_VERSION) {
    setStatus(`The server speaks protocol version ${hello.version}; this page knows ${PROTOCOL_VERSION}.`, 'error');
  } else {
    setStatus(connection instanceof LocalConnection ? 'Ready: the engine runs in this page.'
      : 'Connected.', 'ok');
  }
  peoplePanel.onHello(hello);
  if (!page.sessionHasGame) {
    // The game of this browser (kept across reloads, closed tabs and server restarts) goes on.
    const stored = hello.saves_games ? storedGameId() : null;
    if (stored && send({ type: 'resume', game_id: stored })) {
      page.resuming = true;
      page.sessionHasGame = true;
    } else {
      gamePanel.newGame();
    }
  }
  recentPanel.request();
}

function storedGameId() {
  try {
    return localStorage.getItem(SAVED_GAME_KEY);
  } catch {
    return null;  // storage refused (a private window's settings): every page starts afresh
  }
}

function keepGameId(state) {
  try {
    const id = gameIdToKeep(state);
    if (id) localStorage.setItem(SAVED_GAME_KEY, id);
    else localStorage.removeItem(SAVED_GAME_KEY);
  } catch {
    // storage refused: nothing is kept
  }
}

// The stored game is gone (or unreadable): said once, and a new game starts.
function resumeFailed(text) {
  page.resuming = false;
  try {
    localStorage.removeItem(SAVED_GAME_KEY);
  } catch {
    // storage refused
  }
  setStatus(`The last game could not be opened again: ${text}`, 'error');
  gamePanel.newGame();
}

function onState(message) {
  const state = completeState(message);
  const previous = page.state;
  page.state = state;
  page.sessionHasGame = true;
  page.resuming = false;
  if (page.hello?.saves_games) keepGameId(state);
  // Analysis lines belong to one position; a new one starts them afresh.
  if (positionChanged(previous, state) || !state.analysis?.on) page.analysis.clear();
  // Engine lines stay up after a game ends (to be read) and go when another game starts.
  if (freshGame(previous, state)) page.engineInfo.clear();
  // A line about a position taken back goes.
  for (const engine of staleInfoEngines(page.engineInfo, state)) page.engineInfo.delete(engine);
  noteSuccess();
  for (const panel of PANELS) panel.render(state);
}

// ---------------------------------------------------------------- start

function start() {
  for (const panel of [...PANELS, pgnPanel]) panel.init?.(page);
  if (location.protocol === 'file:') {
    setStatus('Open this page through quixo-gui (http://host:port/), not as a file.', 'error');
    return;
  }
  // The static site (scripts/build-web.sh) runs the session and its engine in the page.
  const site = staticSite(document);
  if (site) {
    document.body.classList.add('static-site');
    connection = new LocalConnection(site, {
      onMessage,
      onOpen: () => {
        page.sessionHasGame = false;
        setStatus('Starting the engine…');
      },
      onClose: (reason) => setStatus(`The page cannot run: ${reason}`, 'error'),
      onBadMessage: (text) => setStatus(`The page's session: ${text}`, 'warning'),
    });
    connection.connect();
    sitePanel.init(connection);
    return;
  }
  connection = new Connection(socketUrl(location), {
    onMessage,
    onOpen: () => {
      page.sessionHasGame = false;
      setStatus('Connected; waiting for the server…');
    },
    onClose: (retryMs) => {
      page.sessionHasGame = false;
      setStatus(`Connection to quixo-gui closed; reconnecting in ${Math.round(retryMs / 1000)} s…`, 'error');
    },
    onBadMessage: (text) => setStatus(`The server sent something that is not JSON: ${text}`, 'error'),
  });
  connection.connect();
}

// A hook for trying the page without a server: `window.quixoDebug.receive({type: 'state', ...})`
// feeds a message as if the server had sent it; `app` is what the panels share. It sends nothing
// and changes no behaviour.
window.quixoDebug = { receive: onMessage, app: page };

start();
