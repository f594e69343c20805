// Quixo notation as the page needs it (docs/spec.md §3): squares, moves and position strings.
// The page never decides what is legal (the server sends `legal`); this module only turns the
// server's strings into something to draw and, for the board editor, back into a string.

export const FILES = 'abcde';
export const SIZE = 5;

// Cells are indexed rank * 5 + file with rank 0 = '1' (the bottom row), as in the engine.
export function squareName(file, rank) {
  return FILES[file] + String(rank + 1);
}

export function parseSquare(name) {
  if (typeof name !== 'string' || name.length !== 2) return null;
  const file = FILES.indexOf(name[0]);
  const rank = Number(name[1]) - 1;
  if (file < 0 || !(rank >= 0 && rank < SIZE)) return null;
  return { file, rank };
}

export function squareIndex(name) {
  const square = parseSquare(name);
  return square ? square.rank * SIZE + square.file : -1;
}

export const ALL_SQUARES = Array.from({ length: SIZE * SIZE }, (_, index) =>
  squareName(index % SIZE, Math.floor(index / SIZE)));

// The cube letters of each variant. Four players: x = X to seat 1, o = O to seat 2,
// X = X to seat 3, O = O to seat 4.
const LETTERS = { '2p': 'xo', '4p': 'xXoO' };
const SEAT_OF_LETTER = { x: 1, o: 2, X: 3, O: 4 };
const LETTER_OF_SEAT = { 1: 'x', 2: 'o', 3: 'X', 4: 'O' };

export function variantOfSide(side) {
  if (side === 'x' || side === 'o') return '2p';
  if (side === '1' || side === '2' || side === '3' || side === '4') return '4p';
  return null;
}

// Parses "rank5/rank4/rank3/rank2/rank1 side [move number]". Throws an Error saying what is
// wrong, so the board editor and the setup field can show it.
export function parsePosition(text) {
  if (typeof text !== 'string') throw new Error('a position must be a string');
  const fields = text.trim().split(/\s+/);
  if (fields.length < 2) throw new Error('expected the ranks, a space and the side to move');
  const [board, side] = fields;
  const variant = variantOfSide(side);
  if (!variant) throw new Error(`side to move "${side}": expected x, o or a seat 1-4`);
  const ranks = board.split('/');
  if (ranks.length !== SIZE) throw new Error(`expected 5 ranks separated by "/", got ${ranks.length}`);
  const cells = new Array(SIZE * SIZE).fill('');
  ranks.forEach((rankText, row) => {
    const rank = SIZE - 1 - row;
    let file = 0;
    for (const ch of rankText) {
      if (ch >= '1' && ch <= '5') {
        file += Number(ch);
      } else if (LETTERS[variant].includes(ch)) {
        if (file < SIZE) cells[rank * SIZE + file] = ch;
        file += 1;
      } else {
        throw new Error(`rank ${rank + 1}: "${ch}" is not a ${variant} cube letter or a digit 1-5`);
      }
      if (file > SIZE) throw new Error(`rank ${rank + 1} has more than 5 squares`);
    }
    if (file !== SIZE) throw new Error(`rank ${rank + 1} has ${file} squares, not 5`);
  });
  return { cells, side, variant };
}

// The side to move of a position string without parsing the board (the token after the space).
export function sideOf(position) {
  if (typeof position !== 'string') return null;
  return position.trim().split(/\s+/)[1] ?? null;
}

export function formatPosition(cells, side) {
  const ranks = [];
  for (let rank = SIZE - 1; rank >= 0; --rank) {
    let text = '';
    let blanks = 0;
    for (let file = 0; file < SIZE; ++file) {
      const cube = cells[rank * SIZE + file];
      if (!cube) {
        blanks += 1;
        continue;
      }
      if (blanks) text += String(blanks);
      blanks = 0;
      text += cube;
    }
    if (blanks) text += String(blanks);
    ranks.push(text);
  }
  return `${ranks.join('/')} ${side}`;
}

export function isBorder(name) {
  const square = parseSquare(name);
  if (!square) return false;
  return square.file === 0 || square.rank === 0 || square.file === SIZE - 1 || square.rank === SIZE - 1;
}

// "b1e1" / "b1e1X" -> { from, to, point }; "0000" -> { pass: true }; anything else -> null.
export function parseMove(move) {
  if (move === '0000') return { pass: true, from: null, to: null, point: null };
  if (typeof move !== 'string' || (move.length !== 4 && move.length !== 5)) return null;
  const from = move.slice(0, 2);
  const to = move.slice(2, 4);
  const point = move.length === 5 ? move[4] : null;
  if (!parseSquare(from) || !parseSquare(to) || from === to) return null;
  if (point !== null && !(point in SEAT_OF_LETTER)) return null;
  return { pass: false, from, to, point };
}

// Where each cube that moves in a push comes from: a list of { to, from } square names such that
// after the move the cube on `to` is the one that stood on `from` before it. The taken cube goes
// from the move's from-square to its end; the cubes in between slide one step toward the hole.
// Reversing the pairs describes stepping back over the move.
export function slideSources(move) {
  const parsed = parseMove(move);
  if (!parsed || parsed.pass) return [];
  const a = parseSquare(parsed.from);
  const b = parseSquare(parsed.to);
  if (a.file !== b.file && a.rank !== b.rank) return [];
  const df = Math.sign(b.file - a.file);
  const dr = Math.sign(b.rank - a.rank);
  const pairs = [{ to: parsed.to, from: parsed.from }];
  for (let f = a.file, r = a.rank; f !== b.file || r !== b.rank; f += df, r += dr) {
    pairs.push({ to: squareName(f, r), from: squareName(f + df, r + dr) });
  }
  return pairs;
}

// Teams and seats. Two players: the sides are 'x' and 'o'. Four players: seats '1'..'4', team X
// (A) = seats 1 and 3, team O (B) = seats 2 and 4; partners face each other.
export function teamOfSide(side) {
  if (side === 'x' || side === '1' || side === '3') return 'x';
  if (side === 'o' || side === '2' || side === '4') return 'o';
  return null;
}

export function seatOfLetter(letter) {
  return SEAT_OF_LETTER[letter] ?? null;
}

export function letterOfSeat(seat) {
  return LETTER_OF_SEAT[Number(seat)] ?? null;
}

export function partnerOfSeat(seat) {
  return ((Number(seat) + 1) % 4) + 1;
}

export function teamNameOfSeat(seat) {
  return Number(seat) % 2 === 1 ? 'A' : 'B';
}

// "A1", "B1", "A2", "B2" for seats 1-4 (docs/spec.md §2).
export function seatLabel(seat) {
  const n = Number(seat);
  return `${teamNameOfSeat(n)}${n <= 2 ? 1 : 2}`;
}

// The order in which the board editor cycles a square's cube.
export function cubeCycle(variant) {
  return variant === '4p' ? ['', 'x', 'X', 'o', 'O'] : ['', 'x', 'o'];
}

export function sidesOf(variant) {
  return variant === '4p' ? ['1', '2', '3', '4'] : ['x', 'o'];
}

export function startPosition(variant) {
  return variant === '4p' ? '5/5/5/5/5 1' : '5/5/5/5/5 x';
}
