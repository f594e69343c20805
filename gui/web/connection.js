// The page's one WebSocket to quixo-gui, on the same host and port as the page. It reconnects
// after a close, never sooner than RETRY_MIN_MS after the last attempt, so a stopped server is
// not hammered; each new connection is a new session on the server (a new game).

const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 16000;

export function socketUrl(loc) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws`;
}

export class Connection {
  // handlers: onMessage(object), onOpen(), onClose(retryMs), onBadMessage(text)
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.socket = null;
    this.retryMs = RETRY_MIN_MS;
    this.timer = null;
  }

  get open() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  connect() {
    this.timer = null;
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => this.handlers.onOpen?.());
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        this.handlers.onBadMessage?.(String(event.data).slice(0, 80));
        return;
      }
      this.handlers.onMessage(message);
    });
    // 'error' is always followed by 'close'; the retry is scheduled there only.
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    if (this.timer !== null) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.handlers.onClose?.(delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  // A session that said hello is healthy: the next failure retries quickly again.
  resetBackoff() {
    this.retryMs = RETRY_MIN_MS;
  }

  send(message) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
