// people.js with no browser: the levels, the player tags, the options form, the winning five,
// stale engine lines and a PGN in parts (`node --test gui/web/tests/people.test.mjs`).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  FULL_STRENGTH, LEVELS, defaultLevel, eloOption, formOptions, levelChoices, levelName, moveParts,
  optionValueProblem, pgnParts, playerTag, staleInfoEngines, winningSquares,
} from '../people.js';

const STRENGTH = [
  { name: 'Hash', type: 'spin', default: '16', min: 1, max: 1024, vars: [], value: null },
  { name: 'UCI_LimitStrength', type: 'check', default: 'false', min: null, max: null, vars: [], value: null },
  { name: 'UCI_Elo', type: 'spin', default: '1500', min: 0, max: 2000, vars: [], value: null },
  { name: 'Skill Level', type: 'spin', default: '20', min: 0, max: 20, vars: [], value: null },
  { name: 'MultiPV', type: 'spin', default: '1', min: 1, max: 44, vars: [], value: null },
  { name: 'Clear Hash', type: 'button', default: null, min: null, max: null, vars: [], value: null },
  { name: 'Style', type: 'combo', default: 'solid', min: null, max: null, vars: ['solid', 'sharp'], value: null },
];

test('the levels offered are the table\'s inside the engine\'s UCI_Elo range, then full strength', () => {
  const choices = levelChoices(STRENGTH);
  assert.deepEqual(choices.map((c) => c.value), ['0', '400', '800', '1200', '1600', '2000', FULL_STRENGTH]);
  assert.equal(choices[1].label, 'Beginner · 400');
  assert.equal(choices.at(-1).label, 'Full strength');
  // The middle of the table, not full strength, for a new person; else the nearest level.
  assert.equal(defaultLevel(choices), '1200');
  assert.equal(defaultLevel(levelChoices([...STRENGTH.slice(0, 2),
    { ...STRENGTH[2], max: 900 }])), '800');
});

test('an engine without UCI_LimitStrength and UCI_Elo has only full strength', () => {
  assert.equal(eloOption(STRENGTH.filter((o) => o.name !== 'UCI_LimitStrength')), null);
  assert.deepEqual(levelChoices([STRENGTH[0]]).map((c) => c.value), [FULL_STRENGTH]);
  assert.equal(defaultLevel(levelChoices([])), FULL_STRENGTH);
  assert.ok(LEVELS.every((level, i) => i === 0 || level.elo > LEVELS[i - 1].elo));
  assert.equal(LEVELS[0].elo, 0);  // the anchor: the random mover
});

test('a player tag names the player and the level it plays at', () => {
  const state = { players: ['human', 'quixo'], levels: [null, 1200], names: null };
  assert.equal(playerTag(state, 0), 'Person');
  assert.equal(playerTag(state, 1), 'quixo (Club · 1200)');
  assert.equal(levelName(1300), 'Elo 1300');
  // A game loaded from a PGN names the file's engines, not "Person".
  const loaded = { players: ['human', 'human'], levels: [null, null], names: ['alpha', 'beta'] };
  assert.equal(playerTag(loaded, 0), 'alpha');
  assert.equal(playerTag(loaded, 1), 'beta');
});

test('the form leaves out what the page sets itself and buttons, and checks values', () => {
  assert.deepEqual(formOptions(STRENGTH).map((o) => o.name), ['Hash', 'Skill Level', 'Style']);
  assert.match(optionValueProblem(STRENGTH[0], '0'), /from 1 to 1024/);
  assert.match(optionValueProblem(STRENGTH[0], '1.5'), /whole number/);
  assert.equal(optionValueProblem(STRENGTH[0], '64'), null);
  assert.equal(optionValueProblem(STRENGTH[1], 'yes'), 'UCI_LimitStrength takes true or false');
  assert.equal(optionValueProblem(STRENGTH[6], 'SHARP'), null);
  assert.match(optionValueProblem(STRENGTH[6], 'wild'), /solid, sharp/);
});

test('the winning five is found in rows, columns and diagonals, for both variants', () => {
  assert.deepEqual(winningSquares('5/5/5/5/xxxxx o'), ['a1', 'b1', 'c1', 'd1', 'e1']);
  assert.deepEqual(winningSquares('o4/o4/o4/o4/o4 x'), ['a1', 'a2', 'a3', 'a4', 'a5']);
  assert.deepEqual(winningSquares('x4/1x3/2x2/3x1/4x o'), ['a5', 'b4', 'c3', 'd2', 'e1']);
  assert.deepEqual(winningSquares('xXxXx/5/5/5/5 2').length, 5);  // team A, either seat
  assert.deepEqual(winningSquares('xxxxo/5/5/5/5 o'), []);
  assert.deepEqual(winningSquares('not a position'), []);
});

test('the point letter of a four-player move stands apart from its squares', () => {
  assert.deepEqual(moveParts('e2e1O'), { squares: 'e2e1', point: 'O' });
  assert.deepEqual(moveParts('b1e1'), { squares: 'b1e1', point: null });
  assert.deepEqual(moveParts('0000'), { squares: 'pass', point: null });
});

test('an engine line about a position taken back is stale, unless the engine is busy', () => {
  const info = new Map([['quixo', { ply: 2 }], ['other', { ply: 1 }]]);
  const state = { moves: [{}, {}], thinking: null, pondering: null };
  assert.deepEqual(staleInfoEngines(info, state), ['quixo']);
  assert.deepEqual(staleInfoEngines(info, { ...state, moves: [{}, {}, {}] }), []);
  assert.deepEqual(staleInfoEngines(info, { ...state, thinking: { engine: 'quixo' } }), []);
});

test('a long PGN goes in parts that join back to it', () => {
  const text = 'a'.repeat(25);
  const parts = pgnParts(text, 10);
  assert.deepEqual(parts.map((p) => p.text.length), [10, 10, 5]);
  assert.deepEqual(parts.map((p) => p.more), [true, true, undefined]);
  assert.deepEqual(parts.map((p) => p.part), [0, 1, 2]);
  assert.equal(parts.map((p) => p.text).join(''), text);
  assert.deepEqual(pgnParts('short', 10), [{ type: 'load_pgn', text: 'short', part: 0 }]);
  // A surrogate pair stays whole.
  const emoji = 'abcdefghi\u{1F600}xyz';
  assert.equal(pgnParts(emoji, 10).map((p) => p.text).join(''), emoji);
  assert.ok(pgnParts(emoji, 10).every((p) => !/[\ud800-\udbff]$/.test(p.text)));
});
