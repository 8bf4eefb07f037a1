// A signed-in member's sheet, round form and home page follow the game the same way as the live
// page (follow.js), with the session (scorekeeper/follow.py). An answer holds the page's parts,
// each put in place of the element with its id, and the game as `follow-state` (what the round
// form offers, the latest changes in words). The sheet redraws; a change made on another phone
// shows a short notice (notices.js, never one's own); the round form takes the doubles still open
// without touching what is typed, and says before Save what a change means for its double
// (double-note.js); the home page redraws its games. A copy the service worker kept, opened
// offline, never says "live", and catches up as soon as the network is back.
import { adjustRoundForm, followRoundForm } from "./double-note.js";
import { follow } from "./follow.js";
import { t } from "./i18n.js";
import { notify } from "./notices.js";

let following = null;  // {root, follower, state, seen}

function stateIn(node) {
  const block = node.querySelector("#follow-state");
  try { return block ? JSON.parse(block.textContent) : {}; } catch (error) { return {}; }
}

function setUp() {
  const root = document.getElementById("follow");
  if (following && following.root === root) return;
  if (following) following.follower.stop();
  following = null;
  followRoundForm(null);
  if (!root) return;
  const kept = Boolean(document.getElementById("offline-saved"));  // a copy kept by the service worker
  const state = stateIn(document);
  const page = { root, state, seen: new Set(state.seen || []) };
  page.follower = follow({
    url: root.dataset.url,
    etag: root.dataset.etag,
    events: root.dataset.events,
    credentials: "same-origin",
    first: kept ? 0 : undefined,  // catch up at once
    changed: (html) => redraw(page, html),
    state: (name) => { status(name); if (name === "live") caughtUp(); },
  });
  following = page;
  if (root.dataset.kind === "round-form") followRoundForm(page);
  if (kept || !navigator.onLine) status("offline");
}

function status(name) {
  const badge = document.getElementById("follow-status");
  if (!badge) return;
  if (name === "reconnecting" && !navigator.onLine) name = "offline";
  // A finished game is followed still (a correction shows), but "live" would read as "in progress".
  if (name === "live" && document.querySelector(".game-over")) name = "over";
  if (badge.dataset.state === name) return;  // said once, not read out again every 2 s
  badge.dataset.state = name;
  if (name === "live") badge.textContent = t("live");
  else if (name === "over") badge.textContent = t("game over");
  else if (name === "offline") badge.textContent = t("offline");
  else if (name === "gone") badge.textContent = t("Not updating: reload the page");
  else badge.textContent = t("reconnecting…");
}

// A kept copy the server has just answered for shows the game as it is now: it is no longer one.
function caughtUp() {
  const marker = document.getElementById("offline-saved");
  if (!marker) return;
  marker.remove();
  document.dispatchEvent(new CustomEvent("scorekeeper:redrawn"));
}

// The new parts in place; the changes this page has not shown yet told; the round form adjusted
// (a promise: the answer counts as drawn once the form says what it means for it).
function redraw(page, html) {
  const answer = document.createElement("template");
  answer.innerHTML = html;
  const state = stateIn(answer.content);
  if (page.state.role && state.role && state.role !== page.state.role) {
    window.location.reload();  // another role: controls all over the page differ (undo, share, rename)
    return null;
  }
  const fresh = (state.changes || []).filter((change) => !page.seen.has(change.key));
  Array.from(answer.content.children).forEach((part) => {
    const old = part.id && part.id !== "follow-state" && document.getElementById(part.id);
    if (old) old.replaceWith(part);
  });
  const adjusted = page.root.dataset.kind === "round-form" ? adjustRoundForm(state, fresh) : null;
  fresh.slice().reverse().filter((change) => !change.mine).forEach((change) => notify(change.text));
  (state.seen || []).forEach((key) => page.seen.add(key));
  page.state = state;
  document.dispatchEvent(new CustomEvent("scorekeeper:redrawn"));
  return adjusted;
}

// Save asks first whether the game changed (a 304 costs the server two queries): a change not yet
// drawn is drawn, and when it means something for this round's double, the note says so and
// nothing is sent; Save again sends it. No answer within 3 s: it goes as it is.
document.addEventListener("submit", async (event) => {
  const form = event.target;
  const page = following;
  if (!(form instanceof HTMLFormElement) || form.id !== "round-form" || form.dataset.checked || form.dataset.classic) return;
  if (!page || page.root.dataset.kind !== "round-form" || !navigator.onLine || !document.getElementById("double-note")) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  if (form.dataset.checking) return;  // tapped again while asking
  form.dataset.checking = "1";
  const told = form.dataset.told;
  try {
    await Promise.race([page.follower.now(), new Promise((resolve) => { setTimeout(resolve, 3000); })]);
  } finally {
    delete form.dataset.checking;
  }
  if (form.dataset.told !== told || following !== page) return;
  form.dataset.checked = "1";
  try { form.requestSubmit(event.submitter && event.submitter.form === form ? event.submitter : undefined); } finally { delete form.dataset.checked; }
}, true);

document.addEventListener("DOMContentLoaded", setUp);
document.addEventListener("htmx:afterSettle", setUp);
