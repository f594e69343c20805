// The static site's service worker (build-web.sh writes it as sw.js with the site's files and a
// version filled in): after the first visit the page, its session and its engine load from the
// browser's cache, so the site works offline. The endgame tables are kept when first fetched.
// A new build has a new version: its files are fetched afresh and the old cache is dropped.
'use strict';

const VERSION = '__QUIXO_SITE_VERSION__';
const CACHE = `quixo-site-${VERSION}`;
const FILES = __QUIXO_SITE_FILES__;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith('quixo-site-') && name !== CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// Same-origin GETs: the cache first, else the network (and what it gives is kept).
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  }));
});
