// The outbox's store: the rounds and seat changes saved on this phone (IndexedDB), each with the
// account whose page saved it, and the small things every part of the outbox needs (a fresh
// Idempotency-Key, the CSRF token). offline.js keeps and sends the items; outbox-send.js makes and
// sends one; outbox-ahead.js draws the page as it will be once they are in.
// Seat changes (seat-outbox.js) are loaded when a page has one to keep, send or apply: the round
// entry page stays light for the tables that never change seats.
let seatModule = null;
export const seatOutbox = () => seatModule || (seatModule = import("./seat-outbox.js"));
export const isSeat = (item) => item.kind === "seat";

const STORE = "outbox";

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
export function account() {
  const main = document.getElementById("main");
  return (main && main.dataset.account) || "";
}
const ours = (item) => !item.account || item.account === account();
export const outbox = {
  all: async () => ((await inStore("readonly", (store) => store.getAll())) || []).sort((a, b) => a.created - b.created),
  mine: async () => (await outbox.all()).filter(ours),
  put: (item) => inStore("readwrite", (store) => store.put(item)),
  remove: (key) => inStore("readwrite", (store) => store.delete(key)),
  clear: () => inStore("readwrite", (store) => store.clear()),
};

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
export function csrfToken() {
  const cookie = document.cookie.split("; ").find((part) => /^(__Host-)?csrftoken=/.test(part));
  if (cookie) return cookie.slice(cookie.indexOf("=") + 1);
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
}
