// Without a connection: the service worker, the "offline: last updated" note, and the rounds saved
// on the phone (IndexedDB) until the server has them. Each round keeps the Idempotency-Key made at
// its first tap, so sending it again after a lost answer never records it twice; rounds go in the
// order they were saved, and one the server refuses stays, with the server's words, to fix or discard.
// A round belongs to the account whose page saved it (the page's X-Account marker): it is shown and
// sent only from that account's pages, with its marker, which the server checks against the session;
// another account signing in on the phone leaves it aside, waiting for its own account.
import { moment, t, tn } from "./i18n.js";
import { adjustEnterButton, adjustRoundForm } from "./outbox-ahead.js";
import { bodyOf, itemFrom, send } from "./outbox-send.js";
import { csrfToken, isSeat, newKey, outbox } from "./outbox-store.js";

let updateReady = null, reloading = false, syncing = null;

// When the kept copy was saved, as every page writes a moment: on the scorebook's clock (i18n.js).
const clock = moment;

// Every round waiting, oldest first; stop at the first that cannot go, so the order holds.
function sync() {
  if (syncing) return syncing;
  const run = async () => {
    let saved = 0;
    const items = await outbox.mine();
    for (const item of items) {
      if (item.state === "refused") break;
      const result = await send(item);
      if (result.state === "saved") {
        await outbox.remove(item.key);
        saved += 1;
        await movedOn(items, item, result.version);
        continue;
      }
      if (result.state === "refused") {
        Object.assign(item, { state: "refused", errors: result.errors, confirm: result.confirm || "", clash: Boolean(result.clash) });
      }
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

// The items entered after `item` on the same page state were entered after it: once it is saved,
// they are entered from the version it made (so its own round is no change "since" for them).
async function movedOn(items, item, version) {
  if (!Number.isInteger(item.version) || !Number.isInteger(version)) return;
  for (const other of items) {
    if (other !== item && other.game === item.game && other.version === item.version && other.created >= item.created) {
      other.version = version;
      await outbox.put(other);
    }
  }
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
    if (item.clash && !isSeat(item)) {
      // Another phone saved this round first, or changed the game: theirs stays unless the
      // comparison (the round form, theirs beside this one) replaces it. Never saved a second time.
      actions.append(button(t("Compare"), () => fix(item)), button(t("Keep theirs"), () => keepTheirs(item), true));
    } else {
      if (item.confirm) actions.append(button(t("Save anyway"), () => saveAnyway(item)));
      actions.append(button(t("Fix"), () => fix(item), Boolean(item.confirm)), button(t("Discard"), () => discard(item), true));
    }
    li.append(errors, actions);
  }
  return li;
}

// Sent again, with a key of its own, answering the questions: the same round is saved.
async function saveAnyway(item) {
  await outbox.remove(item.key);
  const fields = item.fields.filter(([name]) => name !== "confirmed").concat([["confirmed", item.confirm]]);
  const body = Object.assign({}, item.body || bodyOf(item.fields), { confirm: item.confirm });
  await outbox.put(Object.assign({}, item, { key: newKey(), fields, body, state: "waiting", errors: [], confirm: "", clash: false }));
  sync();
}

// Theirs is what the server has: this phone's round goes, and nothing is sent.
async function keepTheirs(item) {
  await outbox.remove(item.key);
  refresh();
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
  // With the version it was entered from: the page compares, as it does for its own form.
  const version = Number.isInteger(item.version) ? [["version", String(item.version)]] : [];
  item.fields.concat(version, [["csrfmiddlewaretoken", csrfToken()]]).forEach(([name, value]) => {
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
