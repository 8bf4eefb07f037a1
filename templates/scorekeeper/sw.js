// The service worker: keeps the app's files and the pages of games in progress on the phone, so
// they open without a connection. Rendered by scorekeeper.offline; no third-party code.
"use strict";
const CONFIG = {% autoescape off %}{{ config }}{% endautoescape %};
const STATIC = "sk-static-" + CONFIG.version;
const PAGES = "sk-pages-" + CONFIG.version;
const PAGE_PATTERNS = CONFIG.pages.map((pattern) => new RegExp(pattern));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(CONFIG.precache)));
});

// A new version takes over only when the page asks (it says an update is ready first); then the
// caches of every other version go.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== STATIC && key !== PAGES).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "skip-waiting") self.skipWaiting();
  if (data.type === "keep" && Array.isArray(data.urls)) {
    event.waitUntil(Promise.all(data.urls.filter(isPage).map((url) => fetch(url, { credentials: "same-origin" }).then(keep).catch(() => null))));
  }
  if (data.type === "forget") {
    event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((key) => key.startsWith("sk-pages-")).map((key) => caches.delete(key)))));
  }
});

function isPage(url) {
  const parsed = new URL(url, self.location.origin);
  return parsed.origin === self.location.origin && PAGE_PATTERNS.some((pattern) => pattern.test(parsed.pathname));
}

// Keep a page as it came (its headers, the CSP with its nonce, included), noting when.
async function keep(response) {
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.redirected || !type.startsWith("text/html")) return response;
  const headers = new Headers(response.headers);
  headers.set("X-Saved-At", new Date().toISOString());
  const body = await response.clone().arrayBuffer();
  const url = new URL(response.url);
  url.hash = "";
  await (await caches.open(PAGES)).put(url.href, new Response(body, { status: 200, headers }));
  return response;
}

// A kept page, with a marker inside <body> that app.js turns into "offline: last updated 21:04".
async function kept(url) {
  const response = await (await caches.open(PAGES)).match(url, { ignoreVary: true });
  if (!response) return null;
  const saved = response.headers.get("X-Saved-At") || "";
  const html = (await response.text()).replace(/<body([^>]*)>/, `<body$1><div id="offline-saved" data-saved="${saved}" hidden></div>`);
  return new Response(html, { status: 200, headers: response.headers });
}

async function offlinePage() {
  return (await caches.match(CONFIG.offline)) || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return; // as usual
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(caches.match(request).then((found) => found || fetch(request)));
    return;
  }
  const pageRequest = request.mode === "navigate" || request.headers.get("HX-Request") === "true";
  if (!pageRequest) return;
  if (isPage(url.href)) {
    // The network first (the sheet must be current), the kept copy when there is none. A page is
    // kept before it is shown; a cache that fails to keep it never puts an older copy in its place.
    event.respondWith(fetch(request).then(
      async (response) => {
        try {
          await keep(response.clone());
        } catch (error) {
          // keeping is best effort: the fresh page is shown all the same
        }
        return response;
      },
      async () => (await kept(url.href)) || offlinePage(),
    ));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
  }
});
