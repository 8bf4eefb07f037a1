// Round entry at the table: Enter moves to the next pips box still empty and saves only a
// complete round; a box whose ticking settles the rest of the entry (going out: 0 pips; out on a
// double: went out too) fills that in and moves on. What each box settles comes from the rules
// (data-settles, rules/rounds/checks.py SETTLED_BY). A box that takes the focus holding a number
// has it selected; after a refused or questioned save, what to read comes first.

import { pipsOfTiles, readPips, tilesInPipsBox } from "./tile-grammar.js";

function rowOf(element) { return element.closest(".player-row"); }
// An empty pips box to fill: not one a ticked box settles (going out), nor one beside a tile list.
function needsPips(box) {
  const row = rowOf(box);
  const listed = row.querySelector("input.tile-list");
  return box.value === "" && !row.querySelector("input[data-settles]:checked") && !(listed && listed.value.trim());
}
function nextToFill(form, from) {
  const boxes = Array.from(form.querySelectorAll("input.pips"));
  const start = from ? boxes.indexOf(from) + 1 : 0;
  const order = boxes.slice(start).concat(boxes.slice(0, start));
  return order.find(needsPips);
}

document.addEventListener("keydown", (event) => {
  const box = event.target;
  if (event.key !== "Enter" || !(box instanceof HTMLInputElement) || !box.form || box.form.id !== "round-form") return;
  if (box.type === "checkbox" || box.type === "submit") return;
  const next = nextToFill(box.form, box.closest(".player-row") ? rowOf(box).querySelector("input.pips") : null);
  if (next) {
    event.preventDefault();  // a half-filled round is never sent
    next.focus();
  }
});

// The entry's fields that ticking `box` settles, set: a box ticked, an empty value filled in.
function settle(row, box) {
  Object.entries(JSON.parse(box.dataset.settles)).forEach(([field, value]) => {
    const other = row.querySelector(`input.${CSS.escape(field)}`);
    if (!other) return;
    if (other.type === "checkbox") other.checked = Boolean(value);
    else if (other.value === "") other.value = String(value);
  });
}

document.addEventListener("change", (event) => {
  const box = event.target;
  if (!box.form || box.form.id !== "round-form" || box.type !== "checkbox") return;
  const row = rowOf(box);
  const pips = row.querySelector("input.pips");
  if (box.dataset.settles && box.checked) {
    settle(row, box);
    const next = nextToFill(box.form, pips);
    (next || document.getElementById("save-round")).focus();  // nothing left to fill: Save is next
  } else if (box.matches("input.double_blank") && box.checked) {
    // Caught with the 0-0: the pips come next, this player's if still empty.
    const next = needsPips(pips) ? pips : nextToFill(box.form, pips);
    if (next) next.focus();
  }
});

// Round entry, second look (issue 22): a box that takes the focus holding a number has it selected,
// so what is typed replaces it (440 → 44 never becomes 4440), by tap or by keyboard; after a
// refused save, the element with the focus is scrolled fully into view (the first field to fix takes
// it, then htmx shows the page from its top); after a questioned one, the question takes it.
const BOXES = "#round-form input.pips, #round-form input.tiles";
function selectAll(box) { if (document.activeElement === box) box.select(); }
document.addEventListener("focusin", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.matches(BOXES) || box.value === "") return;
  selectAll(box);
  const typed = box.value;  // once something is typed, selecting again would swallow it
  setTimeout(() => { if (box.value === typed) selectAll(box); }, 0);  // after the tap has put the caret where it landed
});
function inView(element) {
  const box = element.getBoundingClientRect();
  const height = window.visualViewport ? window.visualViewport.height : window.innerHeight;
  return box.top >= 0 && box.bottom <= height;
}
function showFocus() {
  const form = document.getElementById("round-form");
  if (!form || !form.querySelector("#error-summary, #surprises, #clash")) return;
  setTimeout(() => {  // after htmx's own scroll to the top of a boosted answer
    // A question (a likely typo, skipped doubles, a clash) is read before anything else: it takes
    // the focus at the top of the screen, so "Save anyway" is never one tap away unread.
    const question = form.querySelector("#surprises, #clash");
    if (question) {
      question.setAttribute("tabindex", "-1");
      question.focus({ preventScroll: true });
      question.scrollIntoView({ block: "start" });
      return;
    }
    const focused = document.activeElement;
    if (focused && form.contains(focused) && !inView(focused)) focused.scrollIntoView({ block: "center" });
  }, 0);
}
document.addEventListener("htmx:afterSettle", showFocus);
window.addEventListener("load", showFocus);

// A pips box takes a sum as the table counts it ("12+9+4"), or the tiles themselves ("8-6 3-2"):
// its total shows under the box as it is typed ("= 25"), read as the server reads it (the tile
// grammar's data); the server adds it up again.
function showSum(box) {
  const shown = rowOf(box).querySelector("output.pips-sum");
  if (!shown) return;
  const tiles = tilesInPipsBox(box.value);
  const pips = tiles ? pipsOfTiles(tiles) : /\D/.test(box.value.trim()) ? readPips(box.value) : null;
  shown.hidden = pips === null || pips === undefined;
  shown.textContent = shown.hidden ? "" : `= ${pips}`;
}
document.addEventListener("input", (event) => {
  const box = event.target;
  if (box instanceof HTMLInputElement && box.matches("#round-form input.pips")) showSum(box);
});
document.addEventListener("DOMContentLoaded", () => document.querySelectorAll("#round-form input.pips").forEach(showSum));
document.addEventListener("htmx:afterSettle", () => document.querySelectorAll("#round-form input.pips").forEach(showSum));

// Switching the language reloads the page: what was typed on the round form is kept for that one
// load (sessionStorage, this tab only) and put back in the form drawn in the new language.
const DRAFT = "round-form-draft";
document.addEventListener("submit", (event) => {
  const form = document.getElementById("round-form");
  if (event.target.id !== "language-switch" || !form) return;
  const fields = Array.from(form.querySelectorAll("input, select"))
    .filter((box) => box.name && box.type !== "hidden" && box.type !== "submit")
    .map((box) => [box.name, box.type === "checkbox" ? box.checked : box.value]);
  try { sessionStorage.setItem(DRAFT, JSON.stringify({ path: location.pathname, fields })); } catch (error) { /* kept nowhere */ }
});
function restoreDraft() {
  const form = document.getElementById("round-form");
  let draft = null;
  try { draft = JSON.parse(sessionStorage.getItem(DRAFT)); sessionStorage.removeItem(DRAFT); } catch (error) { draft = null; }
  if (!form || !draft || draft.path !== location.pathname) return;
  draft.fields.forEach(([name, value]) => {
    const box = form.elements.namedItem(name);
    if (!box || box instanceof RadioNodeList) return;
    if (box.type === "checkbox") box.checked = Boolean(value);
    else if (box.tagName !== "SELECT" || Array.from(box.options).some((option) => option.value === value)) box.value = value;
  });
  form.querySelectorAll("input.pips").forEach(showSum);
  form.querySelectorAll("input.tile-list").forEach((box) => box.dispatchEvent(new Event("input", { bubbles: true })));
}
document.addEventListener("DOMContentLoaded", restoreDraft);
