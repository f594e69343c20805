#!/usr/bin/env node
// quixo-engine's WebAssembly build as a command: UQI on standard input and output, like the native
// quixo-engine, so that quixo-arena (its --compliance checks, its games) drives the same .wasm a
// browser runs. Usage: node quixo-engine-node.js (quixo-engine.js and .wasm beside it, or in the
// folder given by QUIXO_WASM_DIR).
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

const folder = process.env.QUIXO_WASM_DIR || __dirname;
const QuixoEngine = require(path.join(folder, 'quixo-engine.js'));

// Lines that arrive before the module is ready wait for it.
const early = [];
let engine = null;

// TablebasePath names a folder of this machine: its table files are copied into the module's
// memory file system under the folder's absolute path first, and the option names that path, so
// that it reads as it does natively. A folder that is not there goes to the engine as it is
// (which says so).
const TABLEBASE_PATH = /^\s*setoption\s+name\s+TablebasePath\s+value\s+(.+?)\s*$/i;
function withTablesCopied(line) {
  const match = TABLEBASE_PATH.exec(line);
  if (!match || !fs.existsSync(match[1]) || !fs.statSync(match[1]).isDirectory()) return line;
  const folder = path.resolve(match[1]);
  engine.FS.mkdirTree(folder);
  for (const name of fs.readdirSync(folder)) {
    if (name.endsWith('.qtb')) {
      engine.FS.writeFile(path.join(folder, name), fs.readFileSync(path.join(folder, name)));
    }
  }
  return `setoption name TablebasePath value ${folder}`;
}

function deliver(line) {
  engine.sendLine(withTablesCopied(line));
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => (engine ? deliver(line) : early.push(line)));
// The end of the input acts as `quit`, as it does for the native engine.
input.on('close', () => (engine ? deliver('quit') : early.push('quit')));

QuixoEngine({
  // Node's fetch cannot read a file path: the module gets its bytes.
  wasmBinary: fs.readFileSync(path.join(folder, 'quixo-engine.wasm')),
  print: (line) => process.stdout.write(line + '\n'),
  printErr: (line) => process.stderr.write(line + '\n'),
  onQuit: () => process.exit(0),
}).then((module) => {
  engine = module;
  for (const line of early.splice(0)) deliver(line);
}, (error) => {
  process.stderr.write(`quixo-engine (wasm): cannot start: ${error}\n`);
  process.exit(1);
});
