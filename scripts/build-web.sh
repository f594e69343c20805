#!/usr/bin/env bash
# Builds the `wasm` preset and puts the static site in build/web/: files that any static server
# serves (python3 -m http.server, a project site), with no quixo-gui.
#   scripts/build-web.sh            install what is missing, build, assemble build/web/
# build/web/ holds quixo-gui's page (index.html marked as the static site's), session/ its
# session in WebAssembly, engine/ the engine (quixo-engine.js and .wasm, engine-worker.js: UQI
# over postMessage in a Web Worker, quixo-engine-node.js: UQI on stdin/stdout under Node.js),
# tables/ the endgame tables of at most one blank with their index.json, and sw.js, the service
# worker that keeps the site for offline use.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
export NODE_PATH=/usr/share/nodejs

# zstd for the tables' blocks: Debian's own source of the libzstd-dev the native build links,
# fetched once from Debian's archive and checked against its known digest.
zstd_version=1.5.4
zstd_tarball=libzstd_${zstd_version}+dfsg2.orig.tar.xz
zstd_sha256=8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953
deps=build/deps
if [ ! -f "$deps/zstd-$zstd_version/lib/zstd.h" ]; then
  mkdir -p "$deps"
  curl -fsSL -o "$deps/$zstd_tarball" \
    "http://deb.debian.org/debian/pool/main/libz/libzstd/$zstd_tarball"
  echo "$zstd_sha256  $deps/$zstd_tarball" | sha256sum --check --quiet
  tar -xJf "$deps/$zstd_tarball" -C "$deps"
fi

# The preset names build/deps/zstd-1.5.4 as QUIXO_ZSTD_SOURCE_DIR.
cmake --preset wasm >/dev/null
cmake --build --preset wasm

# The site: a fresh folder each time, so that nothing of an older build is served.
web=build/web
rm -rf "$web"
mkdir -p "$web/engine"
cp build/wasm/bin/quixo-engine.js build/wasm/bin/quixo-engine.wasm "$web/engine/"
cp protocol/wasm/engine-worker.js protocol/wasm/table-files.js protocol/wasm/quixo-engine-node.js \
  "$web/engine/"

# The page: quixo-gui's files, its session in WebAssembly beside them, and index.html marked as
# the static site's (local-connection.js reads the mark and runs the session in the page).
cp -r gui/web/. "$web/"
rm -rf "$web/tests"
mkdir -p "$web/session"
cp build/wasm/bin/quixo-gui-session.js build/wasm/bin/quixo-gui-session.wasm "$web/session/"
# The page asks for nothing outside its own origin, and its policy says so: the browser refuses
# anything else (WebAssembly compiles under 'wasm-unsafe-eval'; the page sets styles inline).
csp="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'"
sed -i "s|<meta charset=\"utf-8\">|<meta charset=\"utf-8\">\n  <meta http-equiv=\"Content-Security-Policy\" content=\"$csp\">\n  <meta name=\"quixo-site\" content=\"static\" data-session=\"session/quixo-gui-session.js\" data-engine=\"engine/engine-worker.js\" data-engine-name=\"quixo\">|" "$web/index.html"
grep -q 'name="quixo-site"' "$web/index.html"

# The endgame tables of at most one blank (layers 0 and 1, about 15 MB), which the Worker fetches
# when the page asks for them: the release suites' copies when they are there, else generated
# by the native quixo-tb (about half a minute).
tables=build/release/test-tables
if [ ! -f "$tables/quixo-b1.qtb" ]; then
  tables=build/web-tables
  if [ ! -f "$tables/quixo-b1.qtb" ]; then
    cmake --preset release >/dev/null
    cmake --build --preset release --target quixo-tb
    build/release/bin/quixo-tb generate --blanks 1 --dir "$tables"
  fi
fi
mkdir -p "$web/tables"
cp "$tables/quixo-b0.qtb" "$tables/quixo-b1.qtb" "$web/tables/"
# What the Worker fetches, with the sizes the page states before it does.
{
  echo '{"files": ['
  sep=""
  for file in "$web"/tables/*.qtb; do
    printf '%s  {"name": "%s", "bytes": %d}' "$sep" "$(basename "$file")" "$(stat -c %s "$file")"
    sep=$',\n'
  done
  printf '\n]}\n'
} > "$web/tables/index.json"
# The service worker: every file of the site but the tables (kept when first fetched), and a
# version from their contents, so that a new build replaces what browsers cached.
python3 - "$web" gui/wasm/service-worker.js <<'PYTHON'
import hashlib, json, os, sys
web, template = sys.argv[1], sys.argv[2]
files, digest = [], hashlib.sha256()
for folder, _, names in sorted(os.walk(web)):
    for name in sorted(names):
        path = os.path.join(folder, name)
        relative = os.path.relpath(path, web)
        if relative.startswith("tables/") or relative == "sw.js" or name == "quixo-engine-node.js":
            continue
        files.append("./" + ("" if relative == "index.html" else relative))
        with open(path, "rb") as handle:
            digest.update(relative.encode() + b"\0" + handle.read())
text = open(template).read()
text = text.replace("__QUIXO_SITE_VERSION__", digest.hexdigest()[:16])
text = text.replace("__QUIXO_SITE_FILES__", json.dumps(sorted(files), indent=2))
open(os.path.join(web, "sw.js"), "w").write(text)
PYTHON

echo "build-web: $web/ ($(du -sh "$web" | cut -f1)); serve it with: python3 -m http.server -d $web"
