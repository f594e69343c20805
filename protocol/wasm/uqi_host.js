// Linked into the module (--post-js): UQI line for line over the module, the same commands and
// answers as quixo-engine's standard input and output. Module.sendLine(text) queues a command;
// each answer line goes to Module.print; Module.onQuit is called after `quit`.
//
// Commands run one at a time: a `go` runs until its bestmove is out, and yields to the event loop
// every few milliseconds (Asyncify), when the lines queued meanwhile are taken by the engine
// (quixoTakeInputLine): stop, ponderhit and isready are answered then, the rest in turn.

var quixoInputLines = [];
var quixoRunning = false;
var quixoClosed = false;

Module["quixoTakeInputLine"] = function () {
  return quixoInputLines.length > 0 ? quixoInputLines.shift() : null;
};

Module["sendLine"] = function (text) {
  if (quixoClosed) return;
  // One message may hold several lines, as a pipe may.
  for (const line of String(text).split(/\r?\n/)) {
    if (line.length > 0) quixoInputLines.push(line);
  }
  if (!quixoRunning) quixoRunCommands();
};

async function quixoRunCommands() {
  quixoRunning = true;
  while (quixoInputLines.length > 0 && !quixoClosed) {
    const line = quixoInputLines.shift();
    const size = lengthBytesUTF8(line) + 1;
    const text = _malloc(size);
    stringToUTF8(line, text, size);
    let alive;
    try {
      alive = await ccall("quixo_uqi_line", "number", ["number"], [text], { async: true });
    } finally {
      _free(text);
    }
    if (!alive) {
      quixoClosed = true;
      if (Module["onQuit"]) Module["onQuit"]();
    }
  }
  quixoRunning = false;
}
