// The endgame tables of the static site, fetched the one way the engine's Worker
// (engine-worker.js, by importScripts) and the page's session (gui/wasm, linked in) fetch them:
// the files that `base`'s index.json lists (build-web.sh writes it), each handed to
// write(name, bytes). Resolves to {files, bytes}.
async function quixoFetchTableFiles(base, write) {
  const response = await fetch(new URL('index.json', base));
  if (!response.ok) throw new Error(`${response.status} for ${base}index.json`);
  const index = await response.json();
  let bytes = 0;
  for (const file of index.files) {
    if (!/^[\w.-]+\.qtb$/.test(file.name)) throw new Error(`not a table file: ${file.name}`);
    const data = await fetch(new URL(file.name, base));
    if (!data.ok) throw new Error(`${data.status} for ${file.name}`);
    const content = new Uint8Array(await data.arrayBuffer());
    write(file.name, content);
    bytes += content.length;
  }
  return { files: index.files.map((file) => file.name), bytes };
}
