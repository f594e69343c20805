// The page's pure parts for keeping a person's work: the move list's tree of variations, the
// pending goto of quick key presses, and the game id kept in the browser's storage.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  completeState, gameIdToKeep, gameTree, isShownMove, moveListLayout, moveNumberText, movesKey,
  pendingGoto, recentGameText, variationTokens,
} from '../state.js';

// 1. a1a5 e5e1 {sharp} (1… e1a1 2. b1b5 (2. a5a1)) 2. b1b5
function studyState(extra = {}) {
  return completeState({
    variant: '2p', start: '5/5/5/5/5 x', position: 'p', ply: 1, node: 1, line: [1, 2, 3],
    moves: [{ move: 'a1a5' }, { move: 'e5e1' }, { move: 'b1b5' }],
    tree: [
      { id: 1, move: 'a1a5', ply: 1, comment: '', variations: [] },
      {
        id: 2, move: 'e5e1', ply: 2, comment: 'sharp', variations: [[
          { id: 4, move: 'e1a1', ply: 2, comment: '', variations: [] },
          {
            id: 5, move: 'b1b5', ply: 3, comment: '', variations: [[
              { id: 6, move: 'a5a1', ply: 3, comment: '', variations: [] }]],
          },
        ]],
      },
      { id: 3, move: 'b1b5', ply: 3, comment: '', variations: [] },
    ],
    ...extra,
  });
}

test('the move list puts a move\'s comment and variations under its row, then goes on', () => {
  const layout = moveListLayout(studyState());
  assert.deepEqual(layout.map((item) => item.kind), ['row', 'notes', 'row']);
  assert.deepEqual(layout[0].moves.map((move) => move.node), [1, 2]);
  assert.equal(layout[0].number, 1);
  assert.equal(layout[1].comment, 'sharp');
  assert.equal(layout[2].number, 2);
  assert.equal(layout[2].gaps, 0);
  const tokens = layout[1].lines[0];
  assert.deepEqual(tokens.map((token) => token.kind === 'move' ? token.text : token.kind),
    ['open', '1… e1a1', '2. b1b5', 'open', '2. a5a1', 'close', 'close']);
  assert.deepEqual(tokens.filter((token) => token.kind === 'move').map((token) => token.node), [4, 5, 6]);
});

test('after a block the main line restarts its row with gaps up to its column', () => {
  const state = studyState();
  state.tree[0].comment = 'first';  // the block comes after X's move: O's move goes on after a gap
  const layout = moveListLayout(state);
  assert.deepEqual(layout.map((item) => item.kind), ['row', 'notes', 'row', 'notes', 'row']);
  assert.equal(layout[2].gaps, 1);
  assert.equal(layout[2].number, 1);
  assert.deepEqual(layout[2].moves.map((move) => move.node), [2]);
});

test('moves are numbered from the first mover, O\'s restated only where asked', () => {
  const state = studyState();
  assert.equal(moveNumberText(state, 1, false), '1. ');
  assert.equal(moveNumberText(state, 2, false), '');
  assert.equal(moveNumberText(state, 2, true), '1… ');
  assert.equal(moveNumberText({ ...state, start: '5/5/5/5/5 o' }, 1, true), '1… ');
  assert.equal(moveNumberText({ ...state, variant: '4p', start: '5/5/5/5/5 1' }, 5, false), '2. ');
  assert.deepEqual(variationTokens([{ id: 9, move: '0000', ply: 1, comment: 'c', variations: [] }], state)
    .map((token) => token.text ?? token.kind), ['open', '1. pass', 'c', 'close']);
});

test('a state without a tree lists its moves as the main line by ply', () => {
  const state = completeState({ variant: '2p', start: '5/5/5/5/5 x', moves: [{ move: 'a1a5' }], ply: 1 });
  assert.deepEqual(gameTree(state), [{ id: null, move: 'a1a5', ply: 1, comment: '', variations: [] }]);
  assert.equal(isShownMove(state, null, 1), true);
  assert.equal(isShownMove(studyState(), 4, 2), false);
  assert.equal(isShownMove(studyState({ node: 4 }), 4, 2), true);
  assert.equal(isShownMove(studyState({ node: 4 }), 2, 2), false);
  assert.notEqual(movesKey(studyState()), movesKey(studyState({ tree: [] })));
});

test('a pending goto survives the replies to earlier ones until its ply shows', () => {
  const pending = { ply: 3, at: 1000 };
  assert.equal(pendingGoto(pending, { ply: 5 }, 1100, 1000), pending);  // the reply to goto 5
  assert.equal(pendingGoto(pending, { ply: 4 }, 1200, 1000), pending);  // the reply to goto 4
  assert.equal(pendingGoto(pending, { ply: 3 }, 1300, 1000), null);     // its own reply
  assert.equal(pendingGoto(pending, { ply: 4 }, 2000, 1000), null);     // too old
  assert.equal(pendingGoto(null, { ply: 4 }, 0, 1000), null);
});

test('the browser keeps the id of a saved game that has a move', () => {
  assert.equal(gameIdToKeep(studyState({ game_id: 'abc' })), 'abc');
  assert.equal(gameIdToKeep(studyState({ game_id: 'abc', tree: [] })), null);
  assert.equal(gameIdToKeep(studyState({ game_id: '' })), null);
  const text = recentGameText({ saved_ms: new Date(2026, 10, 28, 9, 5).getTime(), players: ['human', 'quixo'], plies: 12, result: '*' });
  assert.equal(text, '2026-11-28 09:05 · Person – quixo · 12 plies · *');
});
