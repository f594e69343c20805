// The people panel: the level of the engine a person plays (by name and Elo, from what the
// engine declares), the engine options form (`engine_options`, `set_option`), and pausing an
// engine-vs-engine game. The level table and the checks are people.js's.

import { $ } from './dom.js';
import {
  DEFAULT_ELO, FULL_STRENGTH, defaultLevel, formOptions, levelChoices, optionValueProblem,
} from './people.js';
import { setStatus } from './status.js';

const LEVEL_KEY = 'quixo.level';   // the person's level, kept for their next visit

let page = null;
let chosen = null;                 // the level the person chose (an Elo as text, or 'full')
let pendingSet = null;             // {engine, name, value}: a set_option on its way
let levelsKey = null;              // the last state's levels

export function init(context) {
  page = context;
  page.engineOptions = new Map();  // engine name -> its engine_options message
  try {
    chosen = localStorage.getItem(LEVEL_KEY);
  } catch {
    chosen = null;
  }
  $('level').addEventListener('change', () => {
    chosen = $('level').value;
    try {
      localStorage.setItem(LEVEL_KEY, chosen);
    } catch {
      // a page without storage keeps the choice until it is closed
    }
  });
  $('engine-1').addEventListener('change', fillLevels);
  $('options-engine').addEventListener('change', renderOptions);
  $('pause').addEventListener('click', () => {
    const state = page.state;
    if (state) page.send({ type: 'pause', on: !state.paused });
  });
}

export function render(state) {
  const key = JSON.stringify(state.levels ?? null);
  if (key !== levelsKey) {
    levelsKey = key;
    fillLevels();
  }
  const pause = $('pause');
  pause.textContent = state.paused ? 'Resume' : 'Pause';
  pause.setAttribute('aria-pressed', String(Boolean(state.paused)));
}

// `hello`: every engine is asked for its options (the levels it offers, the form).
export function onHello(hello) {
  page.engineOptions.clear();
  const engines = hello.engines ?? [];
  const select = $('options-engine');
  const keep = select.value;
  select.replaceChildren(...engines.map((engine) => new Option(engine.name, engine.name)));
  if (engines.some((engine) => engine.name === keep)) select.value = keep;
  fillLevels();
  renderOptions();
  for (const engine of engines) page.send({ type: 'engine_options', engine: engine.name });
}

// A refused set_option is no longer on its way.
export function onError() {
  pendingSet = null;
}

export function onEngineOptions(message) {
  page.engineOptions.set(message.engine, message);
  if (message.engine === $('engine-1').value) fillLevels();
  if (message.engine === $('options-engine').value) renderOptions();
  if (pendingSet && pendingSet.engine === message.engine) {
    setStatus(`${pendingSet.engine}: ${pendingSet.name} = ${pendingSet.value}, from its next search.`, 'ok');
    pendingSet = null;
  }
}

// The level part of `new_game`: {elo} at a level, nothing at full strength or in another mode.
// Before the engine's options are known (the first game of a page), the person's level or the
// default one goes as a default (`elo_if_offered`): an engine without levels plays at full
// strength, one with another range at its nearest level.
export function levelRequest(mode) {
  if (mode !== 'human-engine') return {};
  if (!page.engineOptions.has($('engine-1').value)) {
    if (chosen === FULL_STRENGTH) return {};
    const elo = Number.isFinite(Number(chosen)) && chosen !== null ? Number(chosen) : DEFAULT_ELO;
    return { elo, elo_if_offered: true };
  }
  const value = $('level').value;
  return value && value !== FULL_STRENGTH ? { elo: Number(value) } : {};
}

function fillLevels() {
  const options = page.engineOptions.get($('engine-1').value)?.options ?? [];
  const choices = levelChoices(options);
  const select = $('level');
  select.replaceChildren(...choices.map((choice) => new Option(choice.label, choice.value)));
  // The person's choice, else the level of the game on the board, else the default one.
  const playing = (page.state?.levels ?? []).find((level) => level !== null && level !== undefined);
  const wanted = chosen ?? (playing === undefined ? null : String(playing));
  select.value = choices.some((choice) => choice.value === wanted) ? wanted : defaultLevel(choices);
  select.disabled = choices.length === 1;
  select.title = choices.length === 1 ? 'This engine declares no UCI_Elo: it plays at full strength' : '';
}

function renderOptions() {
  const engine = $('options-engine').value;
  const message = page.engineOptions.get(engine);
  const box = $('engine-options');
  box.replaceChildren();
  formOptions(message?.options).forEach((option, index) => {
    const id = `engine-option-${index}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = option.name;
    let input;
    const value = option.value ?? option.default ?? '';
    if (option.type === 'check') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = value === 'true';
    } else if (option.type === 'combo') {
      input = document.createElement('select');
      input.replaceChildren(...(option.vars ?? []).map((v) => new Option(v, v)));
      input.value = value;
    } else {
      input = document.createElement('input');
      input.type = option.type === 'spin' ? 'number' : 'text';
      if (option.type === 'spin') {
        if (option.min !== null) input.min = String(option.min);
        if (option.max !== null) input.max = String(option.max);
      }
      input.value = value;
    }
    input.id = id;
    input.dataset.option = option.name;
    input.title = option.type === 'spin' ? `${option.min} to ${option.max}, default ${option.default}`
      : `default ${option.default ?? '(none)'}`;
    input.addEventListener('change', () => {
      const text = option.type === 'check' ? String(input.checked) : input.value;
      const problem = optionValueProblem(option, text);
      if (problem) {
        setStatus(problem, 'error');
        return;
      }
      if (page.send({ type: 'set_option', engine, name: option.name, value: text })) {
        pendingSet = { engine, name: option.name, value: text };
      }
    });
    box.append(label, input);
  });
  if (!message) box.textContent = engine ? 'Not known until the engine has started.' : '';
}
