// Linked into the session module (--post-js): the page's side of GuiSession in WebAssembly.
//   const session = await QuixoGuiSession({onSessionMessage: (text) => ...});
//   session.openSession('quixo', 'engine/engine-worker.js', '/games');
//   session.sendToSession(JSON.stringify({type: 'new_game', ...}));
// The engines' searches run from the event loop (quixo_gui_run_engines) and give it turns; what
// the page sends meanwhile, and the clock's ticks, wait for the next turn (quixoTakePageInput).

var quixoPageInput = [];
var quixoEnginesRunning = false;
var quixoEnginesWanted = false;
var QUIXO_TICK = "\x01tick";

Module["quixoTakePageInput"] = function () {
  return quixoPageInput.length > 0 ? quixoPageInput.shift() : null;
};

function quixoDeliver(text) {
  if (quixoEnginesRunning) {
    quixoPageInput.push(text);
    return;
  }
  const size = lengthBytesUTF8(text) + 1;
  const pointer = _malloc(size);
  stringToUTF8(text, pointer, size);
  try {
    Module["_quixo_gui_input"](pointer);
  } finally {
    _free(pointer);
  }
}

async function quixoRunEngines() {
  if (quixoEnginesRunning) return;
  quixoEnginesRunning = true;
  while (quixoEnginesWanted) {
    quixoEnginesWanted = false;
    await ccall("quixo_gui_run_engines", null, [], [], { async: true });
    // What came after the last turn.
    quixoEnginesRunning = false;
    while (quixoPageInput.length > 0 && !quixoEnginesRunning) quixoDeliver(quixoPageInput.shift());
    quixoEnginesRunning = true;
  }
  quixoEnginesRunning = false;
}

Module["quixoEngineJobsWaiting"] = function () {
  quixoEnginesWanted = true;
  if (!quixoEnginesRunning) setTimeout(quixoRunEngines, 0);
};

Module["openSession"] = function (engineName, engineScript, dataFolder) {
  const kept = ccall("quixo_gui_open", "number", ["string", "string", "string"],
                     [engineName, engineScript, dataFolder]);
  // The clocks: a game whose clock runs out ends without a move.
  setInterval(() => quixoDeliver(QUIXO_TICK), 250);
  return kept === 0;
};

Module["sendToSession"] = quixoDeliver;

// The endgame tables from the site (`url`: the folder with index.json): into the session's file
// system for the values the page shows, and to every engine Worker (engine-worker.js fetches them
// too, from the browser's cache), those started later included. Resolves to {files, bytes}.
Module["loadTables"] = async function (url) {
  const base = new URL(url, document.baseURI);
  FS.mkdirTree("/tables");
  const loaded = await quixoFetchTableFiles(base, (name, content) => FS.writeFile(`/tables/${name}`, content));
  Module["quixoTablesUrl"] = base.href;
  const engines = Module["quixoEngines"];
  if (engines) {
    for (const engine of engines.byId.values())
      engine.worker.postMessage({ type: "load-tables", url: base.href });
  }
  quixoDeliver("\x01tables");
  return loaded;
};
