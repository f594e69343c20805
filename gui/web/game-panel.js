// The game panel: the controls of the next game (mode, variant, side, engines, seats, time
// control, ponder) and its buttons (new game, take back, engine: move now, stop), and the
// analysis requests (the analysis mode, the line count). After a game starts that the controls
// do not describe, they are set to describe it, so that "New game" repeats it.

import { $ } from './dom.js';
import { teamOfSide } from './notation.js';
import { levelRequest } from './people-panel.js';
import { clampMultipv, gameChanged, modeOfGame, playersFor, seatPresets } from './state.js';

let page = null;
let shown = null;              // the state last drawn by render()
let mode = 'human-engine';     // the mode selector's value when last acted on

export function init(context) {
  page = context;
  $('mode').addEventListener('change', onModeChange);
  $('variant').addEventListener('change', () => {
    presetSeats();
    updateControlHints();
  });
  for (const id of ['human-side', 'engine-1', 'engine-2']) {
    $(id).addEventListener('change', () => {
      presetSeats();
      // A different analysis engine takes over at once.
      if (id === 'engine-1' && $('mode').value === 'analysis' && page.state?.analysis?.on) {
        page.send(analysisRequest(true));
      }
    });
  }
  $('new-game').addEventListener('click', newGame);
  $('takeback').addEventListener('click', () => page.send({ type: 'takeback' }));
  $('think').addEventListener('click', () => {
    const engine = $('engine-1').value;
    page.send(engine ? { type: 'think', engine } : { type: 'think' });
  });
  $('stop').addEventListener('click', () => page.send({ type: 'stop' }));
  $('analysis-multipv').addEventListener('change', () => {
    if ($('mode').value === 'analysis') page.send(analysisRequest(true));
  });
  updateControlHints();
}

export function render(state) {
  if (gameChanged(shown, state)) syncControls(state);
  shown = state;
}

// The server's `hello` lists the engines the selectors offer.
export function showEngines() {
  fillEngineSelects();
  updateControlHints();
}

export function newGame() {
  const message = { type: 'new_game', variant: $('variant').value, players: playersFromControls() };
  const time = $('time').value.trim();
  if (time) message.time = time;
  if ($('ponder').checked) message.ponder = true;
  Object.assign(message, levelRequest($('mode').value));
  if (!page.send(message)) return;
  page.sessionHasGame = true;
  page.toggleEditor(false);
  page.markOpenedGame(null);
  if ($('mode').value === 'analysis') page.send(analysisRequest(true));
  else if (page.state?.analysis?.on) page.send(analysisRequest(false));
}

function engineNames() {
  return (page.hello?.engines ?? []).map((engine) => engine.name);
}

function fillEngineSelects() {
  const names = engineNames();
  for (const id of ['engine-1', 'engine-2']) {
    const select = $(id);
    const keep = select.value;
    select.replaceChildren(...(page.hello?.engines ?? []).map((engine) =>
      new Option(engine.id ? `${engine.name} (${engine.id})` : engine.name, engine.name)));
    if (names.length === 0) select.appendChild(new Option('(no engine listed)', ''));
    if (names.includes(keep)) select.value = keep;
    // Engine vs engine defaults to two different engines when there are two.
    else if (id === 'engine-2' && names.length > 1) select.value = names[1];
  }
  for (let seat = 1; seat <= 4; ++seat) {
    const select = $(`seat-player-${seat}`);
    const keep = select.value;
    select.replaceChildren(new Option('Person', 'human'), ...names.map((name) => new Option(name, name)));
    select.value = ['human', ...names].includes(keep) ? keep : 'human';
  }
  presetSeats();
}

function choices() {
  return {
    variant: $('variant').value,
    mode: $('mode').value,
    engine1: $('engine-1').value,
    engine2: $('engine-2').value,
    humanSide: $('human-side').value,
    seats: [1, 2, 3, 4].map((seat) => $(`seat-player-${seat}`).value),
  };
}

// Four players: the mode fills the seat selectors, which may then be changed one by one.
function presetSeats() {
  seatPresets(choices()).forEach((player, index) => {
    $(`seat-player-${index + 1}`).value = player;
  });
}

function playersFromControls() {
  return playersFor(choices());
}

function updateControlHints() {
  const selected = $('mode').value;
  const variant = $('variant').value;
  // Controls that the mode does not use are dimmed, not hidden or disabled, so that they can be
  // set in any order before "New game".
  document.querySelectorAll('[data-for-mode]').forEach((element) => {
    element.classList.toggle('unused', element.dataset.forMode !== selected || variant === '4p');
  });
  $('seat-fields').hidden = variant !== '4p';
  $('engine-2').previousElementSibling.textContent = variant === '4p' ? 'Engine 2 (team B)' : 'Engine 2 (O)';
}

// After a game starts that the controls do not describe (a loaded PGN game, a reconnect, a new
// game from elsewhere), the controls are set to describe it, so "New game" repeats it.
function syncControls(state) {
  const time = state.time ?? '';
  if ($('time').value.trim() !== time) $('time').value = time;
  const same = $('variant').value === state.variant
    && playersFromControls().join() === state.players.join();
  if (same) return;
  $('variant').value = state.variant;
  const engines = state.players.filter((player) => player !== 'human');
  mode = modeOfGame(state);
  $('mode').value = mode;
  const names = engineNames();
  const pick = (id, name) => {
    if (name && names.includes(name)) $(id).value = name;
  };
  if (state.variant === '2p') {
    if (mode === 'human-engine') {
      $('human-side').value = state.players[0] === 'human' ? 'x' : 'o';
      pick('engine-1', engines[0]);
    } else if (mode === 'engine-engine') {
      pick('engine-1', state.players[0]);
      pick('engine-2', state.players[1]);
    }
  } else {
    state.players.forEach((player, index) => {
      const select = $(`seat-player-${index + 1}`);
      if ([...select.options].some((option) => option.value === player)) select.value = player;
    });
    const firstHuman = state.players.indexOf('human');
    if (firstHuman >= 0) $('human-side').value = teamOfSide(String(firstHuman + 1));
    if (engines.length) pick('engine-1', engines[0]);
  }
  updateControlHints();
}

function analysisRequest(on) {
  const message = { type: 'analyze', on };
  if (on) {
    const engine = $('engine-1').value;
    if (engine) message.engine = engine;
    message.multipv = clampMultipv($('analysis-multipv').value);
  }
  return message;
}

// Analysis is a mode of the shown game: all players human, the engine thinking on whatever is
// shown. A game that has engines in it keeps its moves and goes on with people in their places
// (`set_players`), so that no engine is asked to move while it analyses.
function onModeChange() {
  const selected = $('mode').value;
  const before = mode;
  mode = selected;
  presetSeats();
  updateControlHints();
  const state = page.state;
  if (!state) return;
  if (selected === 'analysis' && before !== 'analysis') {
    // Analysis first, so that the state with people in the engines' places already says
    // "analysis" and the controls follow it.
    if (!page.send(analysisRequest(true))) return;
    if (state.players.some((player) => player !== 'human')) {
      page.send({ type: 'set_players', players: state.players.map(() => 'human') });
    }
  } else if (selected !== 'analysis' && before === 'analysis') {
    // Sent even if the last state said "off": an `analyze on` may still be on its way.
    page.send(analysisRequest(false));
  }
}
