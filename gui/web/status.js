// The status line at the top: notes fade, errors and connection trouble stay until something
// replaces them.

import { $ } from './dom.js';

const STATUS_FADE_MS = 6000;

let timer = null;
let requests = 0;            // requests sent to the server so far
let errorRequest = null;     // `requests` when the error shown was set

// The page sent a request.
export function noteRequest() {
  ++requests;
}

// A request succeeded (the server's answer came): an error or warning shown from before it goes.
export function noteSuccess() {
  if (errorRequest !== null && requests > errorRequest) {
    errorRequest = null;
    const status = $('status');
    if (status.classList.contains('status-error') || status.classList.contains('status-warning')) {
      status.textContent = '';
      status.className = 'status';
    }
  }
}

// kind: 'info', 'ok' (fades), 'warning' or 'error'.
export function setStatus(text, kind = 'info') {
  const status = $('status');
  errorRequest = kind === 'error' || kind === 'warning' ? requests : null;
  status.textContent = text;
  status.className = `status status-${kind}`;
  clearTimeout(timer);
  if (kind === 'ok') {
    timer = setTimeout(() => {
      if (status.textContent === text) status.textContent = '';
    }, STATUS_FADE_MS);
  }
}
