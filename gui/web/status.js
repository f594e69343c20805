// The status line at the top: notes fade, errors and connection trouble stay until something
// replaces them.

import { $ } from './dom.js';

const STATUS_FADE_MS = 6000;

let timer = null;

// kind: 'info', 'ok' (fades) or 'error'.
export function setStatus(text, kind = 'info') {
  const status = $('status');
  status.textContent = text;
  status.className = `status status-${kind}`;
  clearTimeout(timer);
  if (kind === 'ok') {
    timer = setTimeout(() => {
      if (status.textContent === text) status.textContent = '';
    }, STATUS_FADE_MS);
  }
}
