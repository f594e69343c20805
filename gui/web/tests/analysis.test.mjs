// The page's analysis helpers, with no browser: `node --test gui/web/tests/analysis.test.mjs`.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  MARKS, analysisHoverText, analysisSummary, bestMoveArrows, cursorStep, graphHoverText, markSymbol, movetimeMs,
  parseTypedMove,
} from '../analysis.js';
import { analysisScore, graphPoints } from '../score.js';
import { arrowsOfLines } from '../state.js';

const LEGAL_2P = [
  { move: 'b1e1', from: 'b1', to: 'e1', point: null },
  { move: 'b1b5', from: 'b1', to: 'b5', point: null },
  { move: 'a5a1', from: 'a5', to: 'a1', point: null },
];

// X and O alternate from the start; moves 1 (X) and 2 (O) analysed.
function analysedGame() {
  return {
    variant: '2p',
    players: ['human', 'quixo'],
    start: '5/5/5/5/5 x',
    moves: [
      { move: 'c1c5', position: '2x2/5/5/5/5 o', score: null,
        analysis: { score: { cp: -40 }, tb: null, best: 'a1a5', loss: 0.2, cp_loss: 90, mark: 'blunder' } },
      { move: 'a1e1', position: '2x2/5/5/5/4o x', score: { cp: 10 },
        analysis: { score: { cp: 25 }, tb: null, best: 'a1e1', loss: 0, cp_loss: 0, mark: null } },
      { move: 'b1b5', position: 'x1x2/5/5/5/4o o', score: null,
        analysis: { score: null, tb: { value: 'loss', distance: 6 }, best: 'e1e5', loss: 0.06, cp_loss: 30, mark: 'inaccuracy' } },
      { move: 'e5e1', position: 'x1x2/5/5/5/3oo x', score: { cp: 5 }, analysis: null },
    ],
  };
}

test('one arrow per analysis line, weighted by rank, best first', () => {
  const lines = new Map([
    [3, { pv: ['a5a1', 'b1e1'] }],
    [1, { pv: ['b1e1', 'a5a1'] }],
    [2, { pv: ['0000'] }],
    [4, { pv: ['b1e1'] }],       // the same move as the best line: no second arrow
    [5, { pv: ['c1c5'] }],
  ]);
  assert.deepEqual(arrowsOfLines(lines), [
    { from: 'b1', to: 'e1', weight: 0 },
    { from: 'a5', to: 'a1', weight: 2 },
    { from: 'c1', to: 'c5', weight: 4 },
  ]);
  assert.deepEqual(arrowsOfLines(new Map()), []);
  assert.deepEqual(arrowsOfLines(undefined), []);
});

test('the marks have the chess symbols and NAGs', () => {
  assert.equal(markSymbol('inaccuracy'), '?!');
  assert.equal(markSymbol('mistake'), '?');
  assert.equal(markSymbol('blunder'), '??');
  assert.equal(markSymbol(null), '');
  assert.deepEqual(Object.values(MARKS).map((mark) => mark.nag), [6, 2, 4]);
});

test('the summary counts each side\'s marks and averages its centipawn loss', () => {
  const rows = analysisSummary(analysedGame());
  assert.equal(rows.length, 2);
  assert.equal(rows[0].side, 'x');
  assert.equal(rows[0].name, 'X — Person');
  assert.deepEqual([rows[0].inaccuracy, rows[0].mistake, rows[0].blunder, rows[0].moves], [1, 0, 1, 2]);
  assert.equal(rows[0].averageCpLoss, 60);
  assert.equal(rows[1].name, 'O — quixo');
  assert.deepEqual([rows[1].inaccuracy, rows[1].mistake, rows[1].blunder, rows[1].moves], [0, 0, 0, 1]);
  assert.equal(rows[1].averageCpLoss, 0);
  const none = analysisSummary({ ...analysedGame(), moves: [] });
  assert.equal(none[0].averageCpLoss, null);
  assert.equal(analysisSummary({ variant: '4p', players: [], start: '5/5/5/5/5 1', moves: [] }).length, 4);
});

test('the graph prefers the analysed value, marks it and says it on hover', () => {
  const state = analysedGame();
  assert.deepEqual(graphPoints(state, 500), [
    { ply: 1, value: -40, mark: 'blunder' },  // X's move, X's view
    { ply: 2, value: -25 },                   // O's move: +25 for O
    { ply: 3, value: -500, mark: 'inaccuracy' },  // X lost in the tables
    { ply: 4, value: -5 },                    // no analysis: the engine's own score
  ]);
  assert.deepEqual(analysisScore({ tb: { value: 'win', distance: 0 } }), { mate: 1 });
  assert.deepEqual(analysisScore({ tb: { value: 'draw', distance: null } }), { cp: 0 });
  assert.equal(analysisScore(null), null);
  assert.equal(analysisHoverText(state, 0), '1. c1c5?? blunder: -40, best a1a5');
  assert.equal(analysisHoverText(state, 1), '2. a1e1: -25');
  assert.equal(analysisHoverText(state, 2), '3. b1b5?! inaccuracy: O wins in 6 (tables), best e1e5');
  assert.equal(graphHoverText(state, 3), '4. e5e1: -5');
});

test('after a marked move the better one is an arrow', () => {
  const state = analysedGame();
  assert.deepEqual(bestMoveArrows({ ...state, ply: 1 }), [{ from: 'a1', to: 'a5', weight: 1 }]);
  assert.deepEqual(bestMoveArrows({ ...state, ply: 2 }), []);  // not marked
  assert.deepEqual(bestMoveArrows({ ...state, ply: 4 }), []);  // not analysed
  assert.deepEqual(bestMoveArrows({ ...state, ply: 0 }), []);
});

test('a typed move is read against the legal moves', () => {
  assert.deepEqual(parseTypedMove('b1e1', LEGAL_2P), { move: 'b1e1' });
  assert.deepEqual(parseTypedMove(' B1-E1 ', LEGAL_2P), { move: 'b1e1' });
  assert.deepEqual(parseTypedMove('b1 b5', LEGAL_2P), { move: 'b1b5' });
  assert.match(parseTypedMove('c1c5', LEGAL_2P).error, /not a legal move/);
  assert.match(parseTypedMove('hello', LEGAL_2P).error, /not a move/);
  assert.match(parseTypedMove('', LEGAL_2P).error, /Type a move/);
  assert.match(parseTypedMove('pass', LEGAL_2P).error, /not legal/);
  assert.deepEqual(parseTypedMove('pass', [{ move: '0000', from: null, to: null, point: null }]), { move: '0000' });
  // Four players: the point decides, and is needed when both are legal.
  const legal4 = [
    { move: 'a1a5X', from: 'a1', to: 'a5', point: 'X' },
    { move: 'a1a5x', from: 'a1', to: 'a5', point: 'x' },
    { move: 'b1e1O', from: 'b1', to: 'e1', point: 'O' },
  ];
  assert.deepEqual(parseTypedMove('a1a5X', legal4), { move: 'a1a5X' });
  assert.deepEqual(parseTypedMove('a1a5x', legal4), { move: 'a1a5x' });
  assert.match(parseTypedMove('a1a5', legal4).error, /a1a5X or a1a5x/);
  assert.deepEqual(parseTypedMove('b1e1', legal4), { move: 'b1e1O' });
});

test('the keyboard cursor moves as the board is seen and stops at its edges', () => {
  assert.equal(cursorStep(null, 'ArrowUp'), 'c3');
  assert.equal(cursorStep('c3', 'ArrowUp'), 'c4');
  assert.equal(cursorStep('c3', 'ArrowLeft'), 'b3');
  assert.equal(cursorStep('a1', 'ArrowLeft'), 'a1');
  assert.equal(cursorStep('e5', 'ArrowUp'), 'e5');
  assert.equal(cursorStep('c3', 'ArrowUp', true), 'c2');
  assert.equal(cursorStep('c3', 'ArrowRight', true), 'b3');
});

test('the time a position is read from the seconds field', () => {
  assert.equal(movetimeMs('0.5'), 500);
  assert.equal(movetimeMs(''), 1000);
  assert.equal(movetimeMs('-3'), 1000);
  assert.equal(movetimeMs('0.001'), 10);
  assert.equal(movetimeMs('600'), 60000);
});
