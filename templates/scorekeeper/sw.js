// The service worker: keeps the app's files and the pages of games in progress on the phone, so
// they open without a connection. Rendered by scorekeeper.offline; no third-party code.
//
// Kept pages belong to one account. Each answer made for a session names its account in the
// X-Account header (an opaque marker; "none" signed out); pages are kept in a cache named after
// it, and an answer for any other account (or for nobody) drops every page kept before. Offline,
// the worker knows only the last account it saw, so it shows pages only from that one cache.
"use strict";
const CONFIG = {% autoescape off %}{{ config }}{% endautoescape %};
const STATIC = "sk-static-" + CONFIG.version;
const PAGES = "sk-pages-";  // + version + "-" + account
const MINE = PAGES + CONFIG.version + "-";
const PAGE_PATTERNS = CONFIG.pages.map((pattern) => new RegExp(pattern));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(CONFIG.precache)));
});

// A new version takes over only when the page asks (it says an update is ready first); then the
// caches of every other version go.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== STATIC && !key.startsWith(MINE)).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "skip-waiting") self.skipWaiting();
  if (data.type === "keep" && Array.isArray(data.urls)) {
    const urls = data.urls.filter(isPage).map((url) => withoutHash(new URL(url, self.location.origin)));
    const asked = epoch;
    event.waitUntil(Promise.all(urls.map((url) => fetch(url, { credentials: "same-origin" }).then((response) => observe(url, response, asked)).catch(() => null))));
  }
  // Logging out: the page has emptied the caches; a page being kept right now must not land after.
  if (data.type === "forget") {
    epoch += 1;
    event.waitUntil(serially(forgetAll));
  }
});

// Moves on when the kept pages change hands (logging out, another account): a page the worker
// went to keep before that is not kept when its answer comes.
let epoch = 0;
let lastAccount = null;

function withoutHash(url) {
  const copy = new URL(url);
  copy.hash = "";
  return copy.href;
}

function isPage(url) {
  const parsed = new URL(url, self.location.origin);
  return parsed.origin === self.location.origin && PAGE_PATTERNS.some((pattern) => pattern.test(parsed.pathname));
}

// Every change to the kept pages waits for the one before, in the order the answers came: a page
// kept for one account never lands after the drop that another account's answer made.
let line = Promise.resolve();
function serially(work) {
  const run = line.then(work);
  line = run.catch(() => null);
  return run;
}

async function pageCaches() {
  return (await caches.keys()).filter((key) => key.startsWith(PAGES));
}

async function forgetAll() {
  await Promise.all((await pageCaches()).map((key) => caches.delete(key)));
}

// The account of this answer becomes the only one with kept pages; the name of its cache.
async function follow(account) {
  const name = MINE + account;
  await Promise.all((await pageCaches()).filter((key) => key !== name).map((key) => caches.delete(key)));
  return name;
}

// A kept page that is no longer this account's to see goes; with `wholeGame`, every page of its
// game (a game gone, or out of the account's reach, takes its round entry with it).
async function forget(url, wholeGame) {
  const path = new URL(url).pathname;
  const game = wholeGame && path.match(/^\/games\/\d+\//);
  for (const key of await pageCaches()) {
    const cache = await caches.open(key);
    for (const request of await cache.keys()) {
      const other = new URL(request.url).pathname;
      if (other === path || (game && other.startsWith(game[0]))) await cache.delete(request, { ignoreVary: true });
    }
  }
}

// What an answer says about the kept pages: whose they are now, whether this one is still there,
// and, for a page, the copy to keep. Nothing is kept without the account it was made for.
function observe(url, response, asked = null) {
  return serially(async () => {
    if (asked !== null && asked !== epoch) return;  // a keep asked for before the pages changed hands
    const account = response.headers.get(CONFIG.header);
    if (account && lastAccount !== null && account !== lastAccount) epoch += 1;
    if (account) lastAccount = account;
    const name = account ? await follow(account) : null;
    if (!isPage(url)) return;
    if (response.status === 401) await forgetAll();  // the session ended
    else if (response.status === 404 || response.status === 410) await forget(url, true);
    else if (response.status === 403 || response.type === "opaqueredirect" || response.redirected) await forget(url, false);
    else if (name) await keep(name, url, response);
  });
}

// Keep a page as it came (its headers, the CSP with its nonce, included), noting when. The Cache
// API keeps what it is given whatever its Cache-Control says (private, no-store included).
async function keep(name, url, response) {
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || !type.startsWith("text/html")) return;
  const headers = new Headers(response.headers);
  headers.set("X-Saved-At", new Date().toISOString());
  const body = await response.clone().arrayBuffer();
  await (await caches.open(name)).put(url, new Response(body, { status: 200, headers }));
}

// A kept page, with a marker inside <body> that offline.js turns into "offline: last updated 21:04".
// Only from the one account's cache there is: two (a change of account half done) show nothing.
async function kept(url) {
  const names = await serially(pageCaches);
  if (names.length !== 1 || !names[0].startsWith(MINE)) return null;
  const response = await (await caches.open(names[0])).match(url, { ignoreVary: true });
  if (!response) return null;
  const saved = response.headers.get("X-Saved-At") || "";
  const html = (await response.text()).replace(/<body([^>]*)>/, `<body$1><div id="offline-saved" data-saved="${saved}" hidden></div>`);
  return new Response(html, { status: 200, headers: response.headers });
}

async function offlinePage() {
  return (await caches.match(CONFIG.offline)) || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
}

// The answer as it came, once what it says about the kept pages is done.
function observed(url) {
  return async (response) => {
    try {
      await observe(url, response);
    } catch (error) {
      // keeping is best effort: the fresh page is shown all the same
    }
    return response;
  };
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return; // as usual
  if (url.pathname.startsWith(CONFIG.auth)) {
    // allauth's API signs in and out without a page: its answers name the account too.
    event.respondWith(fetch(request).then(observed(url.href)));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(caches.match(request).then((found) => found || fetch(request)));
    return;
  }
  const pageRequest = request.mode === "navigate" || request.headers.get("HX-Request") === "true";
  if (!pageRequest) return;
  if (isPage(url.href)) {
    // The network first (the sheet must be current), the kept copy when there is none. A page is
    // kept before it is shown; a cache that fails to keep it never puts an older copy in its place.
    event.respondWith(fetch(request).then(observed(url.href), async () => (await kept(url.href)) || offlinePage()));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).then(observed(url.href), offlinePage));
  }
});
