// The SVG board. It draws whatever it is given (cells, highlights, arrows) and reports clicks on
// squares; which cubes may be taken and where they may go is decided by the caller from the
// server's `legal` list. The cubes are redrawn from the given cells on every render, and a slide
// is animated by starting each moved cube at its old place and letting it glide to its new one,
// so that when the animation ends (or is cut short) the drawing is exactly the given position.

import { ALL_SQUARES, FILES, SIZE, parseSquare, seatOfLetter } from './notation.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CELL = 100;            // one square in SVG units
// Room around the board: for the coordinates, and in the four-player game for the seats' tags.
const MARGIN = { '2p': 48, '4p': 76 };
const COORD_OFFSET = 30;     // from the board's edge to the coordinates' centre line
const SEAT_OFFSET = 60;      // from the board's edge to the seats' tags
const BOARD = CELL * SIZE;
const SLIDE_MS = 150;

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

// Where a seat sits around the table, clockwise from the bottom: seat 1 at the bottom, 2 at the
// left, 3 at the top, 4 at the right (partners face each other). Flipping turns the table.
const SEAT_SIDES = ['bottom', 'left', 'top', 'right'];
export function sideOfSeat(seat, flipped) {
  return SEAT_SIDES[(Number(seat) - 1 + (flipped ? 2 : 0)) % 4];
}
const SIDE_ROTATION = { bottom: 0, left: 90, top: 180, right: 270 };

function prefersReducedMotion() {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

// The square's title, read by screen readers and shown as a tooltip.
function describe(name, cube, variant, takeable, selected, target) {
  let what = cube === '' ? 'blank' : cube.toUpperCase();
  if (cube !== '' && variant === '4p') what += ` pointing to seat ${seatOfLetter(cube)}`;
  const parts = [`${name}: ${what}`];
  if (selected) parts.push('selected');
  else if (takeable) parts.push('may be taken');
  if (target) {
    const value = target.value ? ` (${target.value}${target.label ? ` ${target.label}` : ''})` : '';
    parts.push(`push in here${value}`);
  }
  return parts.join(', ');
}

export class BoardView {
  constructor(svg, { onSquareClick } = {}) {
    this.svg = svg;
    this.flipped = false;
    this.onSquareClick = onSquareClick ?? (() => {});
    this.setMargin('2p');
    svg.replaceChildren();
    el('rect', { class: 'board-frame', x: -12, y: -12, width: BOARD + 24, height: BOARD + 24, rx: 14 }, svg);
    this.coordLayer = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
    this.seatLayer = el('g', { class: 'seat-tags' }, svg);
    this.cellLayer = el('g', { class: 'cells', 'aria-hidden': 'true' }, svg);
    this.cubeLayer = el('g', { class: 'cubes', 'aria-hidden': 'true' }, svg);
    // The highlights (takeable, selected, target) are drawn a little inside each square so that
    // neighbours' outlines do not run together; the hit rects above carry the same classes.
    this.markLayer = el('g', { class: 'marks', 'aria-hidden': 'true' }, svg);
    this.arrowLayer = el('g', { class: 'arrows', 'aria-hidden': 'true' }, svg);
    this.labelLayer = el('g', { class: 'labels', 'aria-hidden': 'true' }, svg);
    this.hitLayer = el('g', { class: 'hits' }, svg);

    this.cells = new Map();
    this.marks = new Map();
    this.cubes = new Map();
    this.drawn = new Map();   // square -> what its cube group shows, to redraw only changes
    this.hits = new Map();
    for (const name of ALL_SQUARES) {
      this.cells.set(name, el('rect', { class: 'cell', width: CELL, height: CELL }, this.cellLayer));
      const outer = el('g', { class: 'cube-slot' }, this.cubeLayer);
      const inner = el('g', { class: 'cube' }, outer);
      this.cubes.set(name, { outer, inner });
      this.marks.set(name, el('rect', { class: 'mark-square', width: CELL - 8, height: CELL - 8, rx: 14 }, this.markLayer));
      // The test hooks live on these: one transparent rect per square, on top of everything, so
      // a click anywhere on the square lands on it and its classes draw the highlights.
      const hit = el('rect', {
        class: 'square', width: CELL, height: CELL, 'data-square': name, 'data-cube': '',
        role: 'button', tabindex: -1,
      }, this.hitLayer);
      el('title', {}, hit);
      hit.addEventListener('click', () => this.onSquareClick(name));
      hit.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          this.onSquareClick(name);
        }
      });
      this.hits.set(name, hit);
    }
    this.placeSquares();
  }

  // The top-left corner of a square in SVG units, as seen with the current orientation.
  origin(name) {
    const { file, rank } = parseSquare(name);
    const column = this.flipped ? SIZE - 1 - file : file;
    const row = this.flipped ? rank : SIZE - 1 - rank;
    return { x: column * CELL, y: row * CELL };
  }

  centre(name) {
    const { x, y } = this.origin(name);
    return { x: x + CELL / 2, y: y + CELL / 2 };
  }

  setMargin(variant) {
    const margin = MARGIN[variant] ?? MARGIN['2p'];
    if (margin === this.margin) return;
    this.margin = margin;
    this.svg.setAttribute('viewBox', `${-margin} ${-margin} ${BOARD + 2 * margin} ${BOARD + 2 * margin}`);
  }

  setFlipped(flipped) {
    this.flipped = Boolean(flipped);
    this.placeSquares();
  }

  placeSquares() {
    for (const name of ALL_SQUARES) {
      const { x, y } = this.origin(name);
      const cell = this.cells.get(name);
      cell.setAttribute('x', x);
      cell.setAttribute('y', y);
      const mark = this.marks.get(name);
      mark.setAttribute('x', x + 4);
      mark.setAttribute('y', y + 4);
      this.cubes.get(name).outer.setAttribute('transform', `translate(${x} ${y})`);
      const hit = this.hits.get(name);
      hit.setAttribute('x', x);
      hit.setAttribute('y', y);
    }
    this.coordLayer.replaceChildren();
    for (let i = 0; i < SIZE; ++i) {
      const file = this.flipped ? SIZE - 1 - i : i;
      const rank = this.flipped ? i : SIZE - 1 - i;
      el('text', { x: i * CELL + CELL / 2, y: BOARD + COORD_OFFSET, class: 'coord' }, this.coordLayer).textContent = FILES[file];
      el('text', { x: -COORD_OFFSET, y: i * CELL + CELL / 2, class: 'coord' }, this.coordLayer).textContent = String(rank + 1);
    }
  }

  // view: {
  //   cells: 25 letters ('' blank), variant: '2p'|'4p',
  //   takeable: Set of squares, selected: square|null,
  //   targets: Map square -> {value: 'win'|'draw'|'loss'|null, label: string|null},
  //   lastMove: {from, to}|null, arrows: [{from, to, weight}],
  //   seats: [{seat, text, toMove}] (four players) | null,
  //   slide: [{to, from}] pairs to animate | null, editing: bool,
  //   preview: bool (an analysis line's position, not the game's),
  //   winning: Set of the squares of a line of five | undefined }
  render(view) {
    const takeable = view.takeable ?? new Set();
    const targets = view.targets ?? new Map();
    this.svg.classList.toggle('editing', Boolean(view.editing));
    this.svg.classList.toggle('previewing', Boolean(view.preview));
    this.setMargin(view.variant);
    for (const [index, name] of ALL_SQUARES.entries()) {
      const cube = view.cells[index] ?? '';
      const { inner } = this.cubes.get(name);
      // A cube is redrawn only when it changes, so that a state that repeats the position (a
      // clock or a thinking flag changed) does not cut a running slide short.
      const key = `${cube}|${view.variant}|${this.flipped}`;
      if (this.drawn.get(name) !== key || view.slide?.length) {
        for (const animation of inner.getAnimations?.() ?? []) animation.cancel();
        inner.replaceChildren();
        this.drawCube(inner, cube, view.variant);
        this.drawn.set(name, key);
      }

      const cell = this.cells.get(name);
      const last = view.lastMove && (view.lastMove.from === name || view.lastMove.to === name);
      cell.classList.toggle('last-move', Boolean(last));

      const hit = this.hits.get(name);
      hit.setAttribute('data-cube', cube);
      const target = targets.get(name);
      hit.classList.toggle('takeable', takeable.has(name));
      hit.classList.toggle('selected', view.selected === name);
      hit.classList.toggle('target', Boolean(target));
      hit.classList.toggle('win-line', Boolean(view.winning?.has(name)));
      for (const value of ['win', 'draw', 'loss']) hit.classList.toggle(`tb-${value}`, target?.value === value);
      // Other class names than the hit rect's, so that a selector such as `.takeable` finds
      // only the clickable squares.
      const markClasses = [...hit.classList].filter((c) => c !== 'square').map((c) => `is-${c}`);
      this.marks.get(name).setAttribute('class', ['mark-square', ...markClasses].join(' '));
      const interactive = view.editing || takeable.has(name) || Boolean(target) || view.selected === name;
      hit.setAttribute('tabindex', interactive ? 0 : -1);
      hit.firstChild.textContent = describe(name, cube, view.variant, takeable.has(name), view.selected === name, target);
    }
    this.drawLabels(targets);
    this.drawArrows(view.arrows ?? []);
    this.drawSeats(view.seats ?? null);
    if (view.slide?.length && !prefersReducedMotion()) this.animateSlide(view.slide);
  }

  drawCube(group, cube, variant) {
    const kind = cube === '' ? 'blank' : cube.toLowerCase() === 'x' ? 'x' : 'o';
    el('rect', { class: `cube-face cube-${kind}`, x: 8, y: 8, width: 84, height: 84, rx: 12 }, group);
    if (kind === 'x') {
      el('path', { class: 'mark mark-x', d: 'M32 32 L68 68 M68 32 L32 68' }, group);
    } else if (kind === 'o') {
      el('circle', { class: 'mark mark-o', cx: 50, cy: 50, r: 21 }, group);
    }
    if (variant === '4p' && kind !== 'blank') {
      // The point: a small wedge on the edge of the face that faces the seat that may take it.
      const rotation = SIDE_ROTATION[sideOfSeat(seatOfLetter(cube), this.flipped)];
      el('path', {
        class: `point point-${kind}`, d: 'M36 79 L64 79 L50 91 Z', transform: `rotate(${rotation} 50 50)`,
      }, group);
    }
  }

  drawLabels(targets) {
    this.labelLayer.replaceChildren();
    for (const [name, target] of targets) {
      if (!target?.label) continue;
      const { x, y } = this.origin(name);
      const text = el('text', { class: `target-label tb-${target.value ?? 'none'}`, x: x + CELL - 10, y: y + CELL - 12 }, this.labelLayer);
      text.textContent = target.label;
    }
  }

  drawArrows(arrows) {
    this.arrowLayer.replaceChildren();
    // Drawn weakest first so the best move's arrow lies on top.
    for (const arrow of [...arrows].reverse()) {
      if (!parseSquare(arrow.from) || !parseSquare(arrow.to)) continue;
      const a = this.centre(arrow.from);
      const b = this.centre(arrow.to);
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      if (length === 0) continue;
      const ux = (b.x - a.x) / length;
      const uy = (b.y - a.y) / length;
      const head = 30;
      const tipX = b.x - ux * 8;
      const tipY = b.y - uy * 8;
      const baseX = tipX - ux * head;
      const baseY = tipY - uy * head;
      const group = el('g', { class: `arrow arrow-${arrow.weight ?? 0}` }, this.arrowLayer);
      el('line', { x1: a.x, y1: a.y, x2: baseX, y2: baseY }, group);
      el('polygon', {
        points: `${tipX},${tipY} ${baseX - uy * 18},${baseY + ux * 18} ${baseX + uy * 18},${baseY - ux * 18}`,
      }, group);
    }
  }

  drawSeats(seats) {
    this.seatLayer.replaceChildren();
    if (!seats) return;
    for (const seat of seats) {
      const side = sideOfSeat(seat.seat, this.flipped);
      const offset = SEAT_OFFSET;
      const position = {
        bottom: { x: BOARD / 2, y: BOARD + offset, rotate: 0 },
        top: { x: BOARD / 2, y: -offset, rotate: 0 },
        left: { x: -offset, y: BOARD / 2, rotate: -90 },
        right: { x: BOARD + offset, y: BOARD / 2, rotate: 90 },
      }[side];
      const team = Number(seat.seat) % 2 === 1 ? 'a' : 'b';
      const text = el('text', {
        class: `seat-tag team-${team}${seat.toMove ? ' to-move' : ''}`,
        x: position.x, y: position.y,
        transform: `rotate(${position.rotate} ${position.x} ${position.y})`,
        'data-seat': seat.seat,
      }, this.seatLayer);
      text.textContent = seat.text;
    }
  }

  animateSlide(pairs) {
    for (const [index, pair] of pairs.entries()) {
      const slot = this.cubes.get(pair.to);
      if (!slot || !this.cubes.has(pair.from)) continue;
      const now = this.origin(pair.to);
      const before = this.origin(pair.from);
      const dx = before.x - now.x;
      const dy = before.y - now.y;
      // The cube that travels the whole line goes over the others, as a lifted cube would.
      if (index === 0) this.cubeLayer.appendChild(slot.outer);
      slot.inner.animate?.(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0px, 0px)' }],
        { duration: SLIDE_MS, easing: 'ease-out' },
      );
    }
  }
}
