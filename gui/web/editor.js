// The board editor: a position being put together by clicking squares, before it is sent with
// `setup`. It knows only the notation (which letters a variant has); whether the position can
// arise or is already over is the server's business, which answers a bad one with an error.

import { cubeCycle, formatPosition, parsePosition, sidesOf, squareIndex } from './notation.js';

export class BoardEditor {
  constructor(variant, cells = null, side = null) {
    this.variant = variant;
    this.cells = cells ? [...cells] : new Array(25).fill('');
    this.side = side && sidesOf(variant).includes(side) ? side : sidesOf(variant)[0];
  }

  static fromPosition(position, fallbackVariant) {
    try {
      const parsed = parsePosition(position);
      return new BoardEditor(parsed.variant, parsed.cells, parsed.side);
    } catch {
      return new BoardEditor(fallbackVariant);
    }
  }

  // Blank -> x -> o -> blank (two players); blank -> x -> X -> o -> O -> blank (four players).
  cycle(square) {
    const index = squareIndex(square);
    if (index < 0) return;
    const cycle = cubeCycle(this.variant);
    const at = cycle.indexOf(this.cells[index]);
    this.cells[index] = cycle[(at + 1) % cycle.length];
  }

  clear() {
    this.cells.fill('');
  }

  setSide(side) {
    if (sidesOf(this.variant).includes(side)) this.side = side;
  }

  // Takes over a typed position string when it parses and is of the editor's variant.
  load(position) {
    const parsed = parsePosition(position);
    if (parsed.variant !== this.variant) throw new Error(`not a ${this.variant} position`);
    this.cells = parsed.cells;
    this.side = parsed.side;
  }

  toString() {
    return formatPosition(this.cells, this.side);
  }
}
