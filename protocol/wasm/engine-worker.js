// quixo-engine in a browser's Web Worker: UQI over postMessage, line for line as on quixo-engine's
// standard input and output. The page posts command lines (strings; one message may hold several
// lines) and gets each answer line as a string message:
//   const engine = new Worker('engine/engine-worker.js');
//   engine.onmessage = (event) => console.log(event.data);   // 'uqiok', 'bestmove a1e1', ...
//   engine.postMessage('uqi');
// After `quit` the Worker closes. What the engine writes to standard error goes to the console.
'use strict';

importScripts('quixo-engine.js');

// Lines that arrive while the module loads wait for it.
const early = [];
let engine = null;
self.onmessage = (event) => {
  const text = String(event.data);
  if (engine) engine.sendLine(text);
  else early.push(text);
};

QuixoEngine({
  print: (line) => self.postMessage(line),
  printErr: (line) => console.error(line),
  onQuit: () => self.close(),
}).then((module) => {
  engine = module;
  for (const text of early.splice(0)) engine.sendLine(text);
}, (error) => {
  // The page reads this as an engine that says why it cannot start, as a process's stderr would.
  self.postMessage(`info string error: the engine cannot start: ${error}`);
});
