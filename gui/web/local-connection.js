// The page's session inside the page, for the static site of scripts/build-web.sh: quixo-gui's
// own session compiled to WebAssembly (session/quixo-gui-session.js) with its engine in a Web
// Worker, in place of the WebSocket to quixo-gui. The same interface as Connection
// (connection.js): connect(), send(message), resetBackoff(), open; the same messages.
//
// The session's games are files of the module's file system kept in the browser's IndexedDB
// (Emscripten's IDBFS): read before the session opens, written a moment after each change.

const GAMES_FOLDER = '/games';
const KEEP_DELAY_MS = 400;

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${url}`));
    document.head.append(script);
  });
}

// The site's settings, from index.html's <meta name="quixo-site" ...> (build-web.sh writes it).
export function staticSite(doc) {
  const meta = doc.querySelector('meta[name="quixo-site"]');
  if (!meta || meta.content !== 'static') return null;
  return {
    session: meta.dataset.session,
    engine: meta.dataset.engine,
    engineName: meta.dataset.engineName || 'quixo',
  };
}

export class LocalConnection {
  // handlers: onMessage(object), onOpen(), onClose(reason), onBadMessage(text)
  constructor(site, handlers) {
    this.site = site;
    this.handlers = handlers;
    this.session = null;
    this.keepTimer = null;
  }

  get open() {
    return this.session !== null;
  }

  async connect() {
    // After this visit the site works offline (sw.js, written by build-web.sh).
    navigator.serviceWorker?.register('sw.js').catch(() => {});
    let module;
    try {
      await loadScript(this.site.session);
      module = await globalThis.QuixoGuiSession({
        // Delivered after the session's call returns, as a WebSocket delivers: the page's answer
        // to one message never runs inside the session's handling of another.
        onSessionMessage: (text) => queueMicrotask(() => this.deliver(text)),
        locateFile: (name) => new URL(name, new URL(this.site.session, document.baseURI)).href,
      });
    } catch (error) {
      this.handlers.onClose?.(`the page's engine could not start: ${error.message ?? error}`);
      return;
    }
    const kept = await this.readGames(module);
    this.session = module;
    this.handlers.onOpen?.();
    if (!module.openSession(this.site.engineName, this.site.engine, kept ? GAMES_FOLDER : '/tmp/games')) {
      this.handlers.onBadMessage?.('games cannot be kept in this browser');
    }
    addEventListener('pagehide', () => this.keepGames());
  }

  deliver(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      this.handlers.onBadMessage?.(String(text).slice(0, 80));
      return;
    }
    if (message.type === 'state') this.scheduleKeep();
    this.handlers.onMessage(message);
  }

  // The games folder from IndexedDB; false when the browser gives no IndexedDB.
  readGames(module) {
    return new Promise((resolve) => {
      try {
        module.FS.mkdir(GAMES_FOLDER);
        module.FS.mount(module.IDBFS, {}, GAMES_FOLDER);
        module.FS.syncfs(true, (error) => resolve(!error));
      } catch {
        resolve(false);
      }
    });
  }

  scheduleKeep() {
    clearTimeout(this.keepTimer);
    this.keepTimer = setTimeout(() => this.keepGames(), KEEP_DELAY_MS);
  }

  keepGames() {
    if (!this.session) return;
    try {
      this.session.FS.syncfs(false, () => {});
    } catch {
      // nothing kept this time; the next change tries again
    }
  }

  // The endgame tables of at most one blank from the site, once (the person asks: they are about
  // 15 MB). Resolves to {files, bytes}.
  loadTables() {
    if (!this.session) return Promise.reject(new Error('the session has not started'));
    this.tables ??= this.session.loadTables('tables/');
    return this.tables;
  }

  resetBackoff() {}

  send(message) {
    if (!this.session) return false;
    this.session.sendToSession(JSON.stringify(message));
    return true;
  }
}
