// The static site's own controls (scripts/build-web.sh): the endgame tables, fetched from the
// site when the person asks, their size said first. quixo-gui's page has none of this: its
// server loads tables from its command line.

import { $ } from './dom.js';

function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export async function init(connection) {
  const box = $('site-tables-box');
  const text = $('site-tables-text');
  const button = $('site-tables-load');
  let index;
  try {
    const response = await fetch('tables/index.json');
    if (!response.ok) return;  // a site built without tables offers none
    index = await response.json();
  } catch {
    return;
  }
  const total = index.files.reduce((sum, file) => sum + file.bytes, 0);
  text.textContent = `Exact values of the positions with at most one blank, and perfect play `
    + `from them: ${megabytes(total)}, downloaded once.`;
  button.textContent = `Download the tables (${megabytes(total)})`;
  box.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    text.textContent = `Downloading ${megabytes(total)}…`;
    try {
      const loaded = await connection.loadTables();
      text.textContent = `Loaded ${loaded.files.join(', ')} (${megabytes(loaded.bytes)}): the `
        + 'values show below for positions with at most one blank.';
      button.textContent = 'Tables loaded';
      box.dataset.loaded = 'true';
    } catch (error) {
      text.textContent = `The tables could not be loaded: ${error.message ?? error}`;
      button.disabled = false;
    }
  });
}
