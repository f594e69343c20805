// The evaluation graph over the game: one point per move that carries an engine score, in X's
// point of view (up = good for X / team A), clamped so that a mate sits on the edge. Clicking
// the graph asks to show the position after the nearest ply.

import { GRAPH_LIMIT } from './score.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const WIDTH = 400;
const HEIGHT = 120;
const PAD = 6;

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  parent.appendChild(node);
  return node;
}

export class EvalGraph {
  constructor(svg, { onGoto } = {}) {
    this.svg = svg;
    this.plies = 0;
    this.onGoto = onGoto ?? (() => {});
    // The graph stretches to its box; strokes keep their width (vector-effect) so it stays crisp.
    svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.addEventListener('click', (event) => {
      if (this.plies <= 0) return;
      const box = svg.getBoundingClientRect();
      if (box.width <= 0) return;
      const fraction = (event.clientX - box.left) / box.width;
      const x = fraction * WIDTH;
      const ply = Math.round(((x - PAD) / (WIDTH - 2 * PAD)) * this.plies);
      this.onGoto(Math.max(0, Math.min(this.plies, ply)));
    });
  }

  x(ply) {
    return PAD + (ply / Math.max(this.plies, 1)) * (WIDTH - 2 * PAD);
  }

  y(value, limit) {
    return HEIGHT / 2 - (value / limit) * (HEIGHT / 2 - PAD);
  }

  // points: [{ply, value, mark?, title?}] from graphPoints(); plies: the number of moves in the
  // game; current: the shown ply. Each point is a dot with its title as the hover text; a marked
  // move's dot (whole-game analysis) is drawn in its mark's colour.
  render(points, plies, current, limit = GRAPH_LIMIT) {
    this.plies = plies;
    const svg = this.svg;
    svg.replaceChildren();
    el('rect', { class: 'graph-x-half', x: 0, y: 0, width: WIDTH, height: HEIGHT / 2 }, svg);
    el('rect', { class: 'graph-o-half', x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2 }, svg);
    el('line', { class: 'graph-zero', x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, 'vector-effect': 'non-scaling-stroke' }, svg);
    if (points.length > 0) {
      const coords = points.map((p) => `${this.x(p.ply).toFixed(1)},${this.y(p.value, limit).toFixed(1)}`);
      // The area between the curve and the zero line makes the leader visible at a glance.
      const first = this.x(points[0].ply).toFixed(1);
      const last = this.x(points[points.length - 1].ply).toFixed(1);
      el('polygon', { class: 'graph-area', points: `${first},${HEIGHT / 2} ${coords.join(' ')} ${last},${HEIGHT / 2}` }, svg);
      el('polyline', { class: 'graph-line', points: coords.join(' '), 'vector-effect': 'non-scaling-stroke' }, svg);
    }
    let marks = 0;
    for (const point of points) {
      const x = this.x(point.ply).toFixed(1);
      const y = this.y(point.value, limit).toFixed(1);
      // A zero-length line with round caps and a stroke that does not scale is a round dot, even
      // though the graph is stretched to its box.
      const dot = el('line', {
        class: `graph-point${point.mark ? ` graph-mark mark-${point.mark}` : ''}`,
        x1: x, y1: y, x2: x, y2: y, 'vector-effect': 'non-scaling-stroke', 'data-ply': point.ply,
      }, svg);
      if (point.mark) {
        dot.setAttribute('data-mark', point.mark);
        marks += 1;
      }
      if (point.title) el('title', {}, dot).textContent = point.title;
    }
    svg.setAttribute('data-marks', String(marks));
    if (plies > 0) {
      const cx = this.x(current);
      el('line', { class: 'graph-current', x1: cx, y1: 0, x2: cx, y2: HEIGHT, 'vector-effect': 'non-scaling-stroke' }, svg);
    }
    svg.setAttribute('data-points', String(points.length));
  }
}
