// quixo-engine in a browser's Web Worker: UQI over postMessage, line for line as on quixo-engine's
// standard input and output. The page posts command lines (strings; one message may hold several
// lines) and gets each answer line as a string message:
//   const engine = new Worker('engine/engine-worker.js');
//   engine.onmessage = (event) => console.log(event.data);   // 'uqiok', 'bestmove a1e1', ...
//   engine.postMessage('uqi');
// After `quit` the Worker closes. What the engine writes to standard error goes to the console.
//
// The endgame tables come on demand from the same site: the page posts
//   {type: 'load-tables', url: '../tables/'}
// (once; later requests are ignored) and the Worker fetches the files that url's index.json lists,
// puts them in the engine's memory file system and sets TablebasePath to them; it answers
// {type: 'tables', files, bytes} (or {type: 'tables', error}). Command lines posted meanwhile
// wait, in order, until the tables are in.
'use strict';

importScripts('quixo-engine.js', 'table-files.js');

const TABLE_FOLDER = '/tables';

// Lines that arrive while the module or the tables load wait for them.
const waiting = [];
let engine = null;
let loading = false;

function deliver(text) {
  if (engine && !loading) engine.sendLine(text);
  else waiting.push(text);
}

function flushWaiting() {
  while (engine && !loading && waiting.length > 0) engine.sendLine(waiting.shift());
}

function loadTables(url) {
  engine.FS.mkdirTree(TABLE_FOLDER);
  return quixoFetchTableFiles(new URL(url, self.location.href),
    (name, content) => engine.FS.writeFile(`${TABLE_FOLDER}/${name}`, content));
}

// The tables asked for, loaded once the module is ready; lines wait meanwhile.
let tablesUrl = null;

function startLoadingTables() {
  loading = true;
  loadTables(tablesUrl).then((loaded) => {
    loading = false;
    engine.sendLine(`setoption name TablebasePath value ${TABLE_FOLDER}`);
    self.postMessage({ type: 'tables', ...loaded });
    flushWaiting();
  }, (error) => {
    loading = false;
    self.postMessage({ type: 'tables', error: String(error.message || error) });
    flushWaiting();
  });
}

self.onmessage = (event) => {
  const message = event.data;
  if (message !== null && typeof message === 'object' && message.type === 'load-tables') {
    if (tablesUrl !== null) return;  // asked already: the files come once
    tablesUrl = String(message.url);
    if (engine) startLoadingTables();
    else loading = true;  // the module's start loads them
    return;
  }
  deliver(String(message));
};

QuixoEngine({
  print: (line) => self.postMessage(line),
  printErr: (line) => console.error(line),
  onQuit: () => self.close(),
}).then((module) => {
  engine = module;
  if (tablesUrl !== null) startLoadingTables();
  else flushWaiting();
}, (error) => {
  // The page reads this as an engine that says why it cannot start, as a process's stderr would.
  self.postMessage(`info string error: the engine cannot start: ${error}`);
});
