// Without a connection: the service worker, the "offline: last updated" note, and the rounds saved
// on the phone (IndexedDB) until the server has them. Each round keeps the Idempotency-Key made at
// its first tap, so sending it again after a lost answer never records it twice; rounds go in the
// order they were saved, and one the server refuses stays, with the server's words, to fix or discard.
// A round belongs to the account whose page saved it (the page's X-Account marker): it is shown and
// sent only from that account's pages, with its marker, which the server checks against the session;
// another account signing in on the phone leaves it aside, waiting for its own account.
import { lang, t, tn } from "./i18n.js";
import { readPips, readTiles } from "./tile-grammar.js";

// Seat changes (seat-outbox.js) are loaded when a page has one to keep, send or apply: the round
// entry page stays light for the tables that never change seats.
let seatModule = null;
const seatOutbox = () => seatModule || (seatModule = import("./seat-outbox.js"));
const isSeat = (item) => item.kind === "seat";

const STORE = "outbox";
let updateReady = null, reloading = false, syncing = null;

function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("scorekeeper", 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
async function inStore(mode, work) {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => { db.close(); resolve(request.result); };
    transaction.onerror = () => { db.close(); reject(transaction.error); };
  });
}
// The account this page was made for ("none" signed out). Rounds saved before rounds carried
// their account have none, and go with whoever is signed in, as they did then.
function account() {
  const main = document.getElementById("main");
  return (main && main.dataset.account) || "";
}
const ours = (item) => !item.account || item.account === account();
const outbox = {
  all: async () => ((await inStore("readonly", (store) => store.getAll())) || []).sort((a, b) => a.created - b.created),
  mine: async () => (await outbox.all()).filter(ours),
  put: (item) => inStore("readwrite", (store) => store.put(item)),
  remove: (key) => inStore("readwrite", (store) => store.delete(key)),
  clear: () => inStore("readwrite", (store) => store.clear()),
};

function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
function csrfToken() {
  const cookie = document.cookie.split("; ").find((part) => /^(__Host-)?csrftoken=/.test(part));
  if (cookie) return cookie.slice(cookie.indexOf("=") + 1);
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
}
function clock(iso) {
  const when = new Date(iso);
  // On the 24-hour clock the pages write times with ("D j M, H:i": a game's history, the trash), in
  // either language: "21:57", never "09:57 PM" beside a history that says "21:59".
  return isNaN(when) ? "" : when.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

// ---- one round, as typed -------------------------------------------------------------------
async function itemFrom(form) {
  if (form.dataset.kind) {  // a seat change (seat-outbox.js)
    return (await seatOutbox()).seatItemFrom(form, {
      key: form.dataset.key || (form.dataset.key = newKey()), account: account(), game: form.dataset.game,
      url: new URL(form.action, location.href).pathname, api: form.dataset.api, sheet: form.dataset.outbox,
      created: Date.now(), state: "waiting", errors: [], confirm: "",
    });
  }
  const fields = Array.from(new FormData(form).entries()).filter(([name]) => name !== "csrfmiddlewaretoken" && name !== "version");
  const entries = Array.from(form.querySelectorAll(".player-row")).map((row) => {
    const value = (selector) => { const box = row.querySelector(selector); return box ? box.value.trim() : ""; };
    const ticked = (selector) => { const box = row.querySelector(selector); return Boolean(box && box.checked); };
    const parts = [];
    if (ticked("input.went_out")) parts.push(ticked("input.ended_on_double") ? t("out on a double") : t("out"));
    const pips = value("input.pips") ? readPips(value("input.pips")) ?? value("input.pips") : "";
    if (pips !== "" && !(ticked("input.went_out") && pips === 0)) parts.push(t("{pips} pips", { pips }));
    if (value("input.tile-list")) parts.push(value("input.tile-list"));
    if (ticked("input.double_blank")) parts.push(t("held the 0-0"));
    return `${row.dataset.player}: ${parts.join(", ") || "–"}`;
  });
  return {
    key: form.dataset.key || (form.dataset.key = newKey()),
    account: account(),
    game: form.dataset.game,
    url: new URL(form.action, location.href).pathname,  // the page's form, to fix a refused round in
    api: form.dataset.api,  // where it is sent
    sheet: form.dataset.outbox,
    double: Number(new FormData(form).get("starting_double")),
    body: bodyOf(fields), entries, fields, created: Date.now(), state: "waiting", errors: [], confirm: "",
  };
}

// The round as the API takes it (RoundWriteSerializer), read from the form's fields as the page's
// form reads them (forms.RoundForm.entries): an empty pips box is sent as none, for the server to
// read as it reads the page's (rules: check 10; the player who went out holds 0); a typed tile list
// is parted with the server's tile grammar (tile-grammar.js), every part sent for the server to
// read (or refuse, naming the player). A surprising round is asked about (`confirm`
// false) unless the form answered the questions already (the key in its "confirmed" field).
function bodyOf(fields) {
  const players = new Map();
  let double = null, confirm = false;
  fields.forEach(([name, value]) => {
    if (name === "starting_double") { double = Number(value); return; }
    if (name === "confirmed") { confirm = value || false; return; }
    // A newcomer seated on this phone and not yet on the server has a stand-in id (negative).
    const found = /^p(-?\d+)_(pips|tiles_left|tiles|went_out|double_blank|ended_on_double)$/.exec(name);
    if (!found) return;
    if (!players.has(found[1])) players.set(found[1], {});
    players.get(found[1])[found[2]] = value;
  });
  const entries = Array.from(players, ([player, typed]) => {
    const number = (text) => (text === undefined || String(text).trim() === "" ? null : Number(text));
    const tiles = typed.tiles && typed.tiles.trim() ? partsOf(typed.tiles) : null;
    const wentOut = "went_out" in typed;
    // A sum as the table counts it ("12+9+4") goes as its total; what reads as no number goes as
    // typed, for the server to refuse naming the player.
    const pips = number(typed.pips) === null ? null : readPips(typed.pips) ?? typed.pips.trim();
    const entry = { player: Number(player), went_out: wentOut, ended_on_double: "ended_on_double" in typed };
    if (pips !== null) entry.pips = pips;
    if (number(typed.tiles_left) !== null) entry.tiles_left = number(typed.tiles_left);
    if (tiles !== null) entry.tiles = tiles;
    if ("double_blank" in typed) entry.double_blank = true;
    else if (tiles === null) entry.double_blank = false;
    return entry;
  });
  return { starting_double: double, entries, confirm };
}
function partsOf(text) {
  const read = readTiles(text);
  return read ? read.tiles.concat(read.refused) : [text];  // without the grammar (an older round), as typed
}

// What the API says is wrong with a round: the rules' messages, or each field's.
function messagesOf(data, status) {
  if (Array.isArray(data.errors)) return data.errors.map((error) => error.message);
  if (typeof data.detail === "string") return [data.detail];
  const found = [];
  (function walk(value) {
    if (typeof value === "string") found.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  })(data);
  return found.length ? found : [t("The server refused this round ({status}).", { status })];
}

// POST /api/v1/games/{id}/rounds/ with the session (and its CSRF token) and the item's key: the
// round command's answer, as the API gives it, becomes the item's state.
async function request(url, method, body, headers) {
  let response, data = null;
  try {
    response = await fetch(url, { method, body: body === null ? undefined : JSON.stringify(body), credentials: "same-origin", headers });
  } catch (error) {
    return null;  // no connection, or the answer was lost: the same key goes again
  }
  if ((response.headers.get("Content-Type") || "").startsWith("application/json")) data = await response.json().catch(() => null);
  return { status: response.status, data };
}

async function send(item) {
  const headers = { "Content-Type": "application/json", "Accept": "application/json", "Idempotency-Key": item.key,
                    "X-CSRFToken": csrfToken() };
  if (item.account) headers["X-Account"] = item.account;
  let answer;
  if (isSeat(item)) {
    answer = await (await seatOutbox()).sendSeat(item, headers, request);
  } else {
    const url = item.api || `/api/v1/games/${item.game}/rounds/`;  // a round queued before rounds went to the API
    const body = item.body || bodyOf(item.fields);
    const known = body.entries.some((entry) => entry.player < 0) ? (await seatOutbox()).resolved : (id) => id;
    const entries = body.entries.map((entry) => Object.assign({}, entry, { player: known(entry.player) }));
    if (entries.some((entry) => entry.player === null)) return { state: "waiting" };  // its newcomer is not made yet
    answer = await request(url, "POST", Object.assign({}, body, { entries }), headers);
  }
  if (answer === null) return { state: "waiting" };
  const response = { status: answer.status }, data = answer.data;
  if (response.status === 201 || (isSeat(item) && response.status === 200)) return { state: "saved" };
  if (!data || response.status >= 500 || data.code === "request_in_progress") return { state: "waiting" };  // later
  // The session ended, or is another account's now (signed in on another tab): it waits for its own.
  if (response.status === 401) return { state: "waiting", note: t("Log in again to send it.") };
  if (data.code === "other_account") return { state: "waiting", note: data.detail };
  if (response.status === 403) return { state: "refused", errors: [t("You may not record rounds in this game (or your session ended: log in again).")] };
  // Needs confirmation (the questions, and the key that answers them), a clash, or invalid.
  if (data.code === "confirmation_needed") return { state: "refused", errors: data.surprises, confirm: data.confirm };
  return { state: "refused", errors: messagesOf(data, response.status) };
}

// Every round waiting, oldest first; stop at the first that cannot go, so the order holds.
function sync() {
  if (syncing) return syncing;
  const run = async () => {
    let saved = 0;
    for (const item of await outbox.mine()) {
      if (item.state === "refused") break;
      const result = await send(item);
      if (result.state === "saved") { await outbox.remove(item.key); saved += 1; continue; }
      if (result.state === "refused") Object.assign(item, { state: "refused", errors: result.errors, confirm: result.confirm || "" });
      item.note = result.note || "";
      await outbox.put(item);
      break;
    }
    return saved;
  };
  syncing = (navigator.locks ? navigator.locks.request("scorekeeper-outbox", run) : run())
    .catch(() => 0)
    .then(async (saved) => {
      syncing = null;
      const box = document.getElementById("outbox");
      if (saved && box && navigator.onLine) { location.reload(); return saved; }  // the sheet as the server has it now
      await refresh();
      return saved;
    });
  return syncing;
}

// ---- what the page shows -------------------------------------------------------------------
function button(text, action, secondary) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = secondary ? "secondary" : "";
  element.textContent = text;
  element.addEventListener("click", action);
  return element;
}

function itemView(item) {
  const li = document.createElement("li");
  li.className = `outbox-item ${item.state}`;
  li.dataset.key = item.key;
  const head = document.createElement("p");
  const strong = document.createElement("strong");
  strong.textContent = isSeat(item) ? item.label : `${item.double}-${item.double}`;
  const state = document.createElement("span");
  state.className = "outbox-state";
  state.textContent = " " + (item.state === "refused" ? t("not saved by the server") : t("waiting to sync"));
  head.append(strong, state);
  const values = document.createElement("p");
  values.className = "muted";
  values.textContent = (item.entries || []).join(" · ");  // a seat change says it all in its label
  li.append(head, values);
  if (item.note) { const note = document.createElement("p"); note.textContent = item.note; li.append(note); }
  if (item.state === "refused") {
    const errors = document.createElement("ul");
    errors.className = "errorlist";
    item.errors.forEach((message) => { const line = document.createElement("li"); line.textContent = message; errors.append(line); });
    const actions = document.createElement("p");
    actions.className = "outbox-actions";
    if (item.confirm) actions.append(button(t("Save anyway"), () => saveAnyway(item)));
    actions.append(button(t("Fix"), () => fix(item), Boolean(item.confirm)), button(t("Discard"), () => discard(item), true));
    li.append(errors, actions);
  }
  return li;
}

// Sent again, with a key of its own, answering the questions: the same round is saved.
async function saveAnyway(item) {
  await outbox.remove(item.key);
  const fields = item.fields.filter(([name]) => name !== "confirmed").concat([["confirmed", item.confirm]]);
  const body = Object.assign({}, item.body || bodyOf(item.fields), { confirm: item.confirm });
  await outbox.put(Object.assign({}, item, { key: newKey(), fields, body, state: "waiting", errors: [], confirm: "" }));
  sync();
}

// The round goes back into the form, as a page sent without scripts would: the server shows its problems there.
// Only with the session of the account that saved it.
async function fix(item) {
  if (item.account && !(await signedInAs(item.account))) {
    item.note = t("Log in again to send it.");
    await outbox.put(item);
    refresh();
    return;
  }
  const form = document.createElement("form");
  form.method = "post";
  form.action = item.url;
  form.hidden = true;
  item.fields.concat([["csrfmiddlewaretoken", csrfToken()]]).forEach(([name, value]) => {
    const input = document.createElement("input");
    input.type = "hidden"; input.name = name; input.value = value;
    form.append(input);
  });
  document.body.append(form);
  await outbox.remove(item.key);
  form.submit();
}

async function signedInAs(marker) {
  try {
    const response = await fetch(location.pathname, { method: "HEAD", credentials: "same-origin" });
    return response.headers.get("X-Account") === marker;
  } catch (error) {
    return true;  // no connection: the form cannot go either, and says so as before
  }
}

async function discard(item) {
  const question = isSeat(item)
    ? t("Discard the change at the table saved on this phone ({change})? It has not reached the server.", { change: item.label })
    : t("Discard the round {double} saved on this phone? It has not reached the server.", { double: `${item.double}-${item.double}` });
  if (!window.confirm(question)) return;
  await outbox.remove(item.key);
  refresh();
}

function say(parts) {
  const status = document.getElementById("app-status");
  if (!status) return;
  status.replaceChildren();
  parts.forEach((part) => status.append(part));
  status.classList.toggle("shown", parts.length > 0);
}

async function refresh() {
  let items = [];
  try { items = await outbox.mine(); } catch (error) { items = []; }
  const box = document.getElementById("outbox");
  if (box) {
    const mine = items.filter((item) => item.game === box.dataset.game);
    box.querySelector(".outbox-items").replaceChildren(...mine.map(itemView));
    box.hidden = mine.length === 0;
  }
  adjustRoundForm(items);
  adjustEnterButton(items);
  const parts = [];
  const saved = document.getElementById("offline-saved");
  if (saved && navigator.onLine) {
    parts.push(t("Back online: this page is from {time}.", { time: clock(saved.dataset.saved) }) + " ");
    parts.push(button(t("Show the latest"), () => location.reload(), true));
    parts.push(" ");
  } else if (saved) parts.push(t("Offline: last updated {time}.", { time: clock(saved.dataset.saved) }) + " ");
  else if (!navigator.onLine) parts.push(t("Offline.") + " ");
  const waiting = items.filter((item) => item.state === "waiting" && !isSeat(item)).length;  // a seat change is listed in the outbox
  if (waiting) parts.push(tn("{count} round waiting to sync.", "{count} rounds waiting to sync.", waiting) + " ");
  else if (saved || !navigator.onLine) parts.push(t("Rounds you save wait on this phone.") + " ");
  if (updateReady) {
    parts.push(t("A new version is ready.") + " ");
    parts.push(button(t("Reload"), () => { reloading = true; updateReady.waiting && updateReady.waiting.postMessage({ type: "skip-waiting" }); }, true));
  }
  say(parts.map((part) => (typeof part === "string" ? document.createTextNode(part) : part)));
}

// A round form drawn before the rounds waiting on this phone offers the doubles the rules open
// after them, expected first: the form's "doubles-ahead" block (rules.game.doubles_ahead) says,
// from where the game was, which doubles each round may start with and where it leaves the game.
function adjustRoundForm(items) {
  const form = document.getElementById("round-form");
  const block = document.getElementById("doubles-ahead");
  if (!form || !form.dataset.outbox || form.dataset.adjusted || !block) return;
  const queued = items.filter((item) => item.game === form.dataset.game && item.state === "waiting");
  const waiting = queued.filter((item) => !isSeat(item));
  if (!queued.length) return;
  form.dataset.adjusted = "1";
  const seated = queued.filter(isSeat);
  if (seated.length) seatOutbox().then((module) => module.seatRows(form, seated));  // the table as they left it
  if (!waiting.length) return;
  const ahead = JSON.parse(block.textContent);
  const place = placeAfter(ahead, waiting);
  if (place === null) return;
  const select = form.elements.starting_double;
  const picked = select.selectedIndex >= 0 && !select.options[select.selectedIndex].defaultSelected ? select.value : null;
  select.replaceChildren(...ahead.open[place].map(([double]) => new Option(`${double}-${double}`, String(double))));
  if (picked !== null && ahead.open[place].some(([double]) => String(double) === picked)) select.value = picked;  // tapped already
  const title = document.getElementById("round-title");
  if (title) title.textContent = t("Round {number}", { number: Number(form.dataset.nextNumber) + waiting.length });
}

// Where the rounds waiting on this phone leave the game, in a "doubles-ahead" block's places; null
// when one is not a round the game could take next (the server has it already).
function placeAfter(ahead, waiting) {
  let place = ahead.start;
  for (const item of waiting) {
    const step = (ahead.open[place] || []).find(([double]) => double === item.double);
    if (!step) return null;
    place = step[1];
  }
  return place;
}

// The sheet's "Enter round 7-7" and "this round: 7-7" name the double that comes after the rounds
// waiting on this phone (its "sheet-doubles-ahead" block, as the round form's), not the one the
// server knows last; "… shuffles next" moves on as they do (shufflerAfter).
function adjustEnterButton(items) {
  const enter = document.getElementById("enter-round");
  const block = document.getElementById("sheet-doubles-ahead");
  const outboxOf = document.getElementById("outbox");
  if (!enter || !block || !outboxOf) return;
  const strong = document.querySelector("#this-round strong");
  if (enter.dataset.drawn === undefined) enter.dataset.drawn = enter.textContent;
  if (strong && strong.dataset.drawn === undefined) strong.dataset.drawn = strong.textContent;
  const queued = items.filter((item) => item.game === outboxOf.dataset.game && item.state === "waiting");
  const waiting = queued.filter((item) => !isSeat(item));
  const ahead = JSON.parse(block.textContent);
  const place = waiting.length ? placeAfter(ahead, waiting) : null;
  const next = place === null ? null : (ahead.open[place] || [])[0];
  enter.textContent = next ? t("Enter round {double}", { double: `${next[0]}-${next[0]}` }) : enter.dataset.drawn;
  if (strong) strong.textContent = next ? `${next[0]}-${next[0]}` : strong.dataset.drawn;
  adjustShuffler(queued, !waiting.length || place !== null);
}

// Who shuffles for the next round of `seated` players after `last` shuffled: the next seated player
// around the table in seat `order` (rules.seating.next_shuffler).
function nextShuffler(order, seated, last) {
  if (!seated.length) return null;
  const start = order.indexOf(last);
  if (start < 0) return seated[0];
  for (let step = 1; step <= order.length; step += 1) {
    const player = order[(start + step) % order.length];
    if (seated.includes(player)) return player;
  }
  return null;
}

// "… shuffles next" past the changes waiting on this phone, in order: each waiting round is shuffled
// by who shuffles now, the next seated player after them shuffles the one after; a seat change
// waiting moves the table (a newcomer sits where the change says, a shuffler taken over hands the
// tiles to the newcomer, one who left to the next seated player). `counts`: false when a waiting
// round is one the server has already (the page is behind it): the sheet's own words stand.
function adjustShuffler(queued, counts) {
  const line = document.getElementById("shuffles-next");
  const block = document.getElementById("sheet-seating");
  const name = line && line.querySelector("bdi");
  if (!line || !block || !name || !line.dataset.player) return;
  if (name.dataset.drawn === undefined) name.dataset.drawn = name.textContent;
  const seating = JSON.parse(block.textContent);
  const names = new Map(seating.order);
  const order = seating.order.map(([id]) => id);
  let seated = seating.seated.slice();
  let now = Number(line.dataset.player);
  for (const item of counts ? queued : []) {
    if (!isSeat(item)) {
      const after = nextShuffler(order, seated, now);
      if (after !== null) now = after;
      continue;
    }
    const id = item.player !== null ? item.player : item.stand;
    const gone = item.change === "leave" ? item.player : item.change === "take_over" ? item.replaces : null;
    if (item.change !== "leave" && !order.includes(id)) {
      const anchor = item.change === "take_over" ? item.replaces : item.after;
      const index = anchor !== null && order.includes(anchor) ? order.indexOf(anchor) + 1 : order.length;
      order.splice(index, 0, id);
      names.set(id, item.who);
    }
    const sitting = new Set(seated);
    if (gone !== null) sitting.delete(gone);
    if (item.change !== "leave") sitting.add(id);
    seated = order.filter((player) => sitting.has(player));
    if (now === gone) now = item.change === "take_over" ? id : nextShuffler(order, seated, now);
  }
  name.textContent = now === Number(line.dataset.player) ? name.dataset.drawn : names.get(now) || name.dataset.drawn;
}

// ---- events ----------------------------------------------------------------------------------
document.addEventListener("input", (event) => {
  const form = event.target.form;
  if (form && form.dataset.outbox && !form.dataset.key) form.dataset.key = newKey();  // the first tap
}, true);

document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
  if (form.dataset.outbox && !form.dataset.classic) {
    event.preventDefault();
    event.stopImmediatePropagation();
    const item = await itemFrom(form);
    const first = !(await outbox.all()).some((other) => other.key === item.key);
    await outbox.put(item);
    await sync();
    const left = (await outbox.all()).find((other) => other.key === item.key);
    if (left && left.state === "refused" && first && navigator.onLine) {
      // Refused at once: the server shows why in the form itself, as without scripts.
      await outbox.remove(item.key);
      form.dataset.classic = "1";
      form.requestSubmit();
      return;
    }
    location.assign(form.dataset.outbox);  // saved, or waiting on the phone: the sheet shows which
  } else if (form.hasAttribute("data-logout") && !form.dataset.cleared) {
    event.preventDefault();
    event.stopImmediatePropagation();
    let waiting = [];
    try { waiting = await outbox.all(); } catch (error) { waiting = []; }
    if (waiting.length && !window.confirm(tn(
      "{count} round saved on this phone has not reached the server and will be lost. Log out anyway?",
      "{count} rounds saved on this phone have not reached the server and will be lost. Log out anyway?",
      waiting.length))) return;
    await forget();
    form.dataset.cleared = "1";
    form.submit();
  }
}, true);

// Nothing private stays on the phone after logging out (the server also sends Clear-Site-Data).
async function forget() {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ type: "forget" });  // and nothing it is keeping right now lands later
  try { await outbox.clear(); } catch (error) { /* nothing kept */ }
  if (window.caches) await Promise.all((await caches.keys()).map((key) => caches.delete(key)));
}

function keepPages() {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!worker || !navigator.onLine || document.getElementById("offline-saved")) return;
  const urls = [location.href];
  const enter = document.getElementById("enter-round");
  if (enter) urls.push(enter.href);
  // The three seat changes too: someone may leave while the connection is gone.
  document.querySelectorAll("#seat-links a[href]").forEach((link) => urls.push(link.href));
  worker.postMessage({ type: "keep", urls });
}

function registerWorker() {
  const url = document.body && document.body.dataset.serviceWorker;
  if (!url || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(url, { scope: "/" }).then((registration) => {
    const check = () => {
      if (registration.waiting && navigator.serviceWorker.controller) { updateReady = registration; refresh(); }
    };
    check();
    registration.addEventListener("updatefound", () => {
      const worker = registration.installing;
      if (worker) worker.addEventListener("statechange", check);
    });
  }).catch(() => { /* the app works without it */ });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload(); else keepPages();
  });
}

function onPage() {
  refresh().then(() => { if (navigator.onLine) sync(); });
  keepPages();
}

document.addEventListener("DOMContentLoaded", () => { registerWorker(); onPage(); });
document.addEventListener("htmx:afterSettle", onPage);
document.addEventListener("scorekeeper:redrawn", onPage);  // following.js redrew the page as the game is now
window.addEventListener("online", () => { refresh(); sync(); });
window.addEventListener("offline", refresh);
setInterval(() => { if (navigator.onLine) outbox.mine().then((items) => { if (items.some((i) => i.state === "waiting")) sync(); }).catch(() => null); }, 15000);
// For the browser tests, and for the round form (double-note.js), which reads it when it needs it.
window.scorekeeperOutbox = { all: () => outbox.all(), sync };
