// The page's pure parts, with no browser: `node --test gui/web/tests/` (node 20 or later).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  formatPosition, parseMove, parsePosition, seatLabel, sideOf, slideSources, squareIndex,
  teamOfSide,
} from '../notation.js';
import { barFraction, formatScore, graphPoints, scoreForX, scoreValue } from '../score.js';
import { BoardEditor } from '../editor.js';
import {
  arrowsOfLine, bestTbEntry, clampMultipv, completeState, currentScoreForX, firstMoveColumn,
  formatClock, freshGame, gameChanged, infoText, isForcedPass, modeOfGame, moveDetails, movesKey,
  playersFor, positionChanged, pvText, seatPresets, seatTags, sideAtPly, sideName, slideBetween,
  sortedTbMoves, takeableSquares, targetsOf, tbLabel, tbValueText, turnTexts, withoutNulls,
} from '../state.js';

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

test('a win or loss proven through the endgame tables reads as such, not as a number', () => {
  assert.equal(formatScore({ cp: 19993 }), 'TB win');
  assert.equal(formatScore({ cp: 19744 }), 'TB win');
  assert.equal(formatScore({ cp: -19990 }), 'TB loss');
  assert.equal(formatScore({ cp: 19743 }), '+19743');
  assert.equal(formatScore({ cp: -950 }), '-950');
  assert.equal(barFraction({ cp: 19993 }), 1);
  assert.equal(scoreValue({ cp: -19990 }, 500), -500);
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

// ------------------------------------------------------------ state.js: what the panels read

// A two-player game: X pushed c1 in at c5, O pushed a1 in at e1; shown after both moves.
function twoPlayerState(extra = {}) {
  return completeState({
    type: 'state', variant: '2p', players: ['human', 'quixo'], time: null, start: '5/5/5/5/5 x',
    moves: [
      { move: 'c1c5', by: 'human', position: '2x2/5/5/5/5 o', time_ms: 1200, score: null, depth: null },
      { move: 'a1e1', by: 'quixo', position: '2x2/5/5/5/4o x', time_ms: 2500, score: { cp: 35 }, depth: 9 },
    ],
    ply: 2, position: '2x2/5/5/5/4o x', to_move: 'x', result: null, human_to_move: true,
    legal: [
      { move: 'b1e1', from: 'b1', to: 'e1', point: null },
      { move: 'b1b5', from: 'b1', to: 'b5', point: null },
      { move: 'a5a1', from: 'a5', to: 'a1', point: null },
    ],
    ...extra,
  });
}

test('a state message gets every list, and its start defaults to its position', () => {
  const state = completeState({ type: 'state', variant: '2p', position: '5/5/5/5/5 x' });
  assert.deepEqual([state.players, state.moves, state.legal, state.ply], [[], [], [], 0]);
  assert.equal(state.start, '5/5/5/5/5 x');
  assert.deepEqual(state.analysis, { on: false });
});

test('a moved position, another game and a fresh game are told apart', () => {
  const state = twoPlayerState();
  assert.ok(positionChanged(null, state));
  assert.ok(!positionChanged(state, { ...state }));
  assert.ok(positionChanged(state, { ...state, ply: 1, position: '2x2/5/5/5/5 o' }));
  assert.ok(gameChanged(null, state));
  assert.ok(!gameChanged(state, { ...state, ply: 0 }));
  assert.ok(gameChanged(state, { ...state, players: ['quixo', 'human'] }));
  assert.ok(gameChanged(state, { ...state, time: '60+1' }));
  assert.ok(!freshGame(state, { ...state, ply: 0 }));
  assert.ok(freshGame(state, { ...state, moves: [], ply: 0 }));
});

test('sides and seats are named for people', () => {
  assert.equal(sideName('x'), 'X');
  assert.equal(sideName('2'), 'Seat 2 (B1, O)');
  assert.equal(sideName(undefined), '');
});

test('the turn line says who moves, the result and who thinks', () => {
  const state = twoPlayerState({ thinking: { engine: 'quixo', purpose: 'analysis' } });
  assert.deepEqual(turnTexts(state), { toMove: 'X to move — Person', result: '', thinking: 'quixo is analysing…' });
  const browsing = { ...state, ply: 1, to_move: 'o', thinking: null, pondering: { engine: 'quixo', move: 'b1e1' } };
  assert.equal(turnTexts(browsing).toMove, 'O to move — quixo (after move 1 of 2)');
  assert.equal(turnTexts(browsing).thinking, 'quixo is pondering on b1e1.');
  const over = { ...state, thinking: null, result: { score: '0-1', reason: 'O makes five in a row' } };
  assert.deepEqual(turnTexts(over), { toMove: 'Game over', result: 'Result 0-1 — O makes five in a row', thinking: '' });
});

test('the takeable cubes and their lit ends come from the legal moves', () => {
  const state = twoPlayerState();
  assert.deepEqual([...takeableSquares(state)].sort(), ['a5', 'b1']);
  assert.deepEqual([...takeableSquares({ ...state, human_to_move: false })], []);
  assert.deepEqual([...targetsOf(state, 'b1').keys()].sort(), ['b5', 'e1']);
  assert.deepEqual(targetsOf(state, 'b1').get('e1'), { value: null, label: null });
  assert.equal(targetsOf(state, null).size, 0);
  assert.ok(!isForcedPass(state));
  assert.ok(isForcedPass({ ...state, legal: [{ move: '0000', from: null, to: null, point: null }] }));
});

test('with the tables, each lit end carries the best value of its moves', () => {
  const tb = {
    value: 'win', distance: 5,
    moves: [
      { move: 'b1e1', value: 'loss', distance: 4 },
      { move: 'b1b5', value: 'win', distance: 3 },
      { move: 'a5a1', value: 'draw', distance: null },
    ],
  };
  const state = twoPlayerState({ tb });
  assert.deepEqual(targetsOf(state, 'b1').get('b5'), { value: 'win', label: 'W3' });
  assert.deepEqual(targetsOf(state, 'b1').get('e1'), { value: 'loss', label: 'L4' });
  assert.deepEqual(targetsOf(state, 'a5').get('a1'), { value: 'draw', label: '=' });
  // Moves that differ only in their point: the fastest win, else a draw, else the slowest loss.
  assert.equal(bestTbEntry([{ value: 'loss', distance: 2 }, { value: 'loss', distance: 8 }]).distance, 8);
  assert.equal(bestTbEntry([{ value: 'win', distance: 9 }, { value: 'draw' }, { value: 'win', distance: 3 }]).distance, 3);
  assert.equal(bestTbEntry([]), null);
  assert.equal(tbLabel({ value: 'win', distance: null }), 'W');
  assert.deepEqual(sortedTbMoves(tb).map((entry) => entry.move), ['b1b5', 'a5a1', 'b1e1']);
  assert.equal(tbValueText(state), 'X to move: win in 5 plies');
  assert.equal(tbValueText({ ...state, to_move: 'o', tb: { value: 'loss', distance: 1 } }), 'O to move: loss in 1 ply');
  assert.equal(tbValueText({ ...state, tb: { value: 'draw', distance: null } }), 'X to move: draw');
});

test('the analysis arrows are the first three moves of the best line, passes left out', () => {
  assert.deepEqual(arrowsOfLine({ pv: ['b1e1', '0000', 'a5a1', 'c1c5'] }), [
    { from: 'b1', to: 'e1', weight: 0 }, { from: 'a5', to: 'a1', weight: 2 },
  ]);
  assert.deepEqual(arrowsOfLine(undefined), []);
});

test('the four seats are tagged with their label, team and player', () => {
  const state = completeState({
    variant: '4p', players: ['human', 'quixo', 'human', 'mock'], position: '5/5/5/5/5 2', to_move: '2',
  });
  const tags = seatTags(state);
  assert.equal(tags[1].text, '2 · B1 · O · quixo');
  assert.equal(tags[0].text, '1 · A1 · X · Person');
  assert.deepEqual(tags.map((tag) => tag.toMove), [false, true, false, false]);
});

test('a step along the game slides its cubes, and only when the positions agree', () => {
  const after = twoPlayerState();
  const before = { ...after, ply: 1, position: '2x2/5/5/5/5 o', to_move: 'o' };
  assert.deepEqual(slideBetween(before, after), slideSources('a1e1'));
  assert.deepEqual(slideBetween(after, before), slideSources('a1e1').map(({ to, from }) => ({ to: from, from: to })));
  assert.equal(slideBetween(null, after), null);
  assert.equal(slideBetween(after, { ...after }), null);
  assert.equal(slideBetween({ ...after, ply: 0, position: '5/5/5/5/5 x' }, after), null);  // two plies
});

test('clocks read as seconds and tenths near the end, else minutes and hours', () => {
  assert.equal(formatClock(8349), '8.3');
  assert.equal(formatClock(-5), '0:00');  // a clock that ran out (issue 26, defect 1)
  assert.equal(formatClock(65000), '1:05');
  assert.equal(formatClock(3723000), '1:02:03');
});

test('the move list starts its first row at the first mover and titles each move', () => {
  assert.equal(firstMoveColumn(twoPlayerState()), 0);
  assert.equal(firstMoveColumn(completeState({ variant: '2p', position: '5/5/5/5/5 o' })), 1);
  assert.equal(firstMoveColumn(completeState({ variant: '4p', position: '5/5/5/5/5 3' })), 2);
  const state = twoPlayerState();
  assert.equal(moveDetails(state.moves[0]), 'by Person, 1.2 s');
  assert.equal(moveDetails(state.moves[1]), 'by quixo, score +35 (mover), depth 9, 2.5 s');
  assert.equal(movesKey(state), movesKey({ ...state, ply: 0 }));
  assert.notEqual(movesKey(state), movesKey({ ...state, moves: state.moves.slice(0, 1) }));
});

test('the shown score prefers the analysis, then a thinking engine, then the last move', () => {
  const state = twoPlayerState();
  const none = new Map();
  // The last move's score is O's (the mover's): -35 for X.
  assert.deepEqual(currentScoreForX(state, none, none), { cp: -35 });
  const thinking = new Map([['mock', { ply: 2, score: { cp: 10 } }]]);
  assert.deepEqual(currentScoreForX(state, none, thinking), { cp: 10 });
  const analysis = new Map([[1, { score: { mate: 2 } }]]);
  assert.deepEqual(currentScoreForX({ ...state, to_move: 'o' }, analysis, thinking), { mate: -2 });
  assert.equal(currentScoreForX({ ...state, ply: 0 }, none, none), null);
  assert.equal(currentScoreForX(null, none, none), null);
});

test('info lines read from X\'s side, passes spelled out', () => {
  const info = { score: { cp: 25 }, bound: 'lowerbound', depth: 9, seldepth: 14, nodes: 123456, nps: 1000000, tbhits: 0 };
  assert.equal(infoText(info, 'x'), '≥+25  depth 9/14  123k nodes  1.00M nps');
  assert.equal(infoText(info, 'o'), '≤-25  depth 9/14  123k nodes  1.00M nps');
  assert.equal(infoText({ depth: 3 }, 'x'), 'depth 3');
  assert.equal(pvText(['b1e1', '0000']), 'b1e1 pass');
  assert.equal(pvText(undefined), '');
  assert.deepEqual(withoutNulls({ score: null, nodes: 5, pv: undefined }), { nodes: 5 });
});

test('an engine\'s line is read from the side to move where it searched', () => {
  const state = twoPlayerState();
  assert.equal(sideAtPly(state, 1), 'o');
  assert.equal(sideAtPly(state, 0), 'x');
  // A ponder search, one move past the end: the side that has just moved.
  assert.equal(sideAtPly(state, 3), 'o');
  assert.equal(sideAtPly({ ...state, variant: '4p', to_move: '3' }, 7), '3');
});

test('the controls give the new game\'s players, and a game gives back the mode', () => {
  const base = { variant: '2p', engine1: 'quixo', engine2: 'mock', humanSide: 'x', seats: ['', '', '', ''] };
  assert.deepEqual(playersFor({ ...base, mode: 'human-engine' }), ['human', 'quixo']);
  assert.deepEqual(playersFor({ ...base, mode: 'human-engine', humanSide: 'o' }), ['quixo', 'human']);
  assert.deepEqual(playersFor({ ...base, mode: 'engine-engine', engine2: '' }), ['quixo', 'quixo']);
  assert.deepEqual(playersFor({ ...base, mode: 'analysis' }), ['human', 'human']);
  assert.deepEqual(playersFor({ ...base, mode: 'human-engine', engine1: '' }), ['human', 'human']);
  assert.deepEqual(playersFor({ ...base, variant: '4p', seats: ['human', 'quixo', '', 'mock'] }),
    ['human', 'quixo', 'human', 'mock']);
  assert.deepEqual(seatPresets({ ...base, mode: 'human-engine', humanSide: 'o' }), ['quixo', 'human', 'quixo', 'human']);
  assert.deepEqual(seatPresets({ ...base, mode: 'engine-engine' }), ['quixo', 'mock', 'quixo', 'mock']);
  assert.deepEqual(seatPresets({ ...base, mode: 'human-human' }), ['human', 'human', 'human', 'human']);
  assert.equal(modeOfGame({ players: ['human', 'quixo'] }), 'human-engine');
  assert.equal(modeOfGame({ players: ['quixo', 'mock'] }), 'engine-engine');
  assert.equal(modeOfGame({ players: ['human', 'human'], analysis: { on: false } }), 'human-human');
  assert.equal(modeOfGame({ players: ['human', 'human'], analysis: { on: true } }), 'analysis');
  assert.deepEqual(['3', '0', 'x', '2.6', '99'].map(clampMultipv), [3, 1, 1, 3, 20]);
});
