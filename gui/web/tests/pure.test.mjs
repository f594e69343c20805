// The page's pure parts, with no browser: `node --test gui/web/tests/` (node 20 or later).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  formatPosition, parseMove, parsePosition, seatLabel, sideOf, slideSources, squareIndex,
  teamOfSide,
} from '../notation.js';
import { barFraction, formatScore, graphPoints, scoreForX, scoreValue } from '../score.js';
import { BoardEditor } from '../editor.js';

test('the start positions read as 25 blanks', () => {
  for (const [text, variant, side] of [['5/5/5/5/5 x', '2p', 'x'], ['5/5/5/5/5 1', '4p', '1']]) {
    const parsed = parsePosition(text);
    assert.equal(parsed.variant, variant);
    assert.equal(parsed.side, side);
    assert.deepEqual(parsed.cells, new Array(25).fill(''));
  }
});

test('ranks run from 5 down to 1, files from a to e', () => {
  const { cells } = parsePosition('x3o/5/2x2/5/o4 o 12');
  assert.equal(cells[squareIndex('a5')], 'x');
  assert.equal(cells[squareIndex('e5')], 'o');
  assert.equal(cells[squareIndex('c3')], 'x');
  assert.equal(cells[squareIndex('a1')], 'o');
  assert.equal(cells.filter(Boolean).length, 4);
});

test('four-player letters keep their point', () => {
  const { cells, side } = parsePosition('xXoO1/5/5/5/5 3');
  assert.deepEqual(cells.slice(20), ['x', 'X', 'o', 'O', '']);
  assert.equal(side, '3');
});

test('bad position strings are refused with a reason', () => {
  for (const bad of ['5/5/5/5 x', '5/5/5/5/5', '5/5/5/5/4 x', '5/5/5/5/6 x', '5/5/5/5/5 y',
    'X4/5/5/5/5 x', '5/5/5/5/x5 x']) {
    assert.throws(() => parsePosition(bad), Error, bad);
  }
});

test('formatPosition gives back what parsePosition read', () => {
  for (const text of ['5/5/5/5/5 x', 'x3o/5/2x2/5/o4 o', 'xXoO1/5/1x1O1/5/5 4', 'xxxxx/ooooo/xxxxx/ooooo/xxxxx x']) {
    const { cells, side } = parsePosition(text);
    assert.equal(formatPosition(cells, side), text);
  }
});

test('moves split into from, to and point', () => {
  assert.deepEqual(parseMove('b1e1'), { pass: false, from: 'b1', to: 'e1', point: null });
  assert.deepEqual(parseMove('b1e1X'), { pass: false, from: 'b1', to: 'e1', point: 'X' });
  assert.equal(parseMove('0000').pass, true);
  assert.equal(parseMove('b1b1'), null);
  assert.equal(parseMove('b1e1q'), null);
});

test('a push slides the row toward the hole', () => {
  // b1e1: the cube from b1 ends on e1; c1, d1, e1 move one step toward b1.
  assert.deepEqual(slideSources('b1e1'), [
    { to: 'e1', from: 'b1' }, { to: 'b1', from: 'c1' }, { to: 'c1', from: 'd1' }, { to: 'd1', from: 'e1' },
  ]);
  assert.deepEqual(slideSources('a3a1'), [{ to: 'a1', from: 'a3' }, { to: 'a3', from: 'a2' }, { to: 'a2', from: 'a1' }]);
  assert.deepEqual(slideSources('0000'), []);
});

test('slideSources matches the position strings of a real push', () => {
  // X pushes b1 in at e1 on a board with o on c1 and x on e1.
  const before = parsePosition('5/5/5/5/2o1x x').cells;
  const after = parsePosition('5/5/5/5/1o1xx o').cells;
  for (const { to, from } of slideSources('b1e1').slice(1)) {
    assert.equal(after[squareIndex(to)], before[squareIndex(from)], `${from} -> ${to}`);
  }
  assert.equal(after[squareIndex('e1')], 'x');
});

test('teams and seats', () => {
  assert.equal(teamOfSide('x'), 'x');
  assert.equal(teamOfSide('3'), 'x');
  assert.equal(teamOfSide('4'), 'o');
  assert.deepEqual(['1', '2', '3', '4'].map(seatLabel), ['A1', 'B1', 'A2', 'B2']);
  assert.equal(sideOf('5/5/5/5/5 2 7'), '2');
});

test('scores turn to X\'s point of view', () => {
  assert.deepEqual(scoreForX({ cp: 35 }, 'x'), { cp: 35 });
  assert.deepEqual(scoreForX({ cp: 35 }, 'o'), { cp: -35 });
  assert.deepEqual(scoreForX({ mate: 3 }, '2'), { mate: -3 });
  assert.deepEqual(scoreForX({ mate: -2 }, '3'), { mate: -2 });
  assert.equal(scoreForX(null, 'x'), null);
});

test('the graph clamps, and mates sit on its edge', () => {
  assert.equal(scoreValue({ cp: 120 }, 500), 120);
  assert.equal(scoreValue({ cp: 9000 }, 500), 500);
  assert.equal(scoreValue({ cp: -9000 }, 500), -500);
  assert.equal(scoreValue({ mate: 4 }, 500), 500);
  assert.equal(scoreValue({ mate: -1 }, 500), -500);
  assert.equal(scoreValue(null, 500), null);
});

test('graph points use the mover of each move', () => {
  const state = {
    start: '5/5/5/5/5 x',
    moves: [
      { move: 'c1c5', position: '2x2/5/5/5/5 o', score: null },
      { move: 'a1e1', position: '2x2/5/5/5/4o x', score: { cp: 40 } },   // O's view
      { move: 'b1b5', position: 'x1x2/5/5/5/4o o', score: { cp: 25 } },  // X's view
      { move: 'e5e1', position: 'x1x2/5/5/5/3oo x', score: { mate: 2 } }, // O's view
    ],
  };
  assert.deepEqual(graphPoints(state, 500), [
    { ply: 2, value: -40 }, { ply: 3, value: 25 }, { ply: 4, value: -500 },
  ]);
});

test('the bar is half for an even game and leans to the leader', () => {
  assert.equal(barFraction(null), 0.5);
  assert.equal(barFraction({ cp: 0 }), 0.5);
  assert.ok(barFraction({ cp: 100 }) > 0.5);
  assert.ok(barFraction({ cp: -100 }) < 0.5);
  assert.equal(barFraction({ mate: 1 }), 1);
  assert.equal(formatScore({ cp: 7 }), '+7');
  assert.equal(formatScore({ mate: -3 }), '#-3');
});

test('the editor cycles cubes and writes the position string', () => {
  const editor = new BoardEditor('2p');
  editor.cycle('a1');
  editor.cycle('e5');
  editor.cycle('e5');
  editor.setSide('o');
  assert.equal(editor.toString(), '4o/5/5/5/x4 o');
  editor.cycle('e5');
  assert.equal(editor.toString(), '5/5/5/5/x4 o');
  const four = new BoardEditor('4p');
  for (let i = 0; i < 4; ++i) four.cycle('c3');
  assert.equal(four.toString(), '5/5/2O2/5/5 1');
  assert.throws(() => four.load('5/5/5/5/5 x'));
});
