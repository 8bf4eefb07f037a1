// The new game form (and the paper game's first step): seats numbered in the order they are ticked
// (the order the game seats them), and a preset's rules filled in when one is chosen.
import { t } from "./i18n.js";

let tapped = 0;

function renumberSeats(form) {
  const boxes = Array.from(form.querySelectorAll("input[data-seat]"));
  const chosen = boxes.filter((box) => box.checked);
  chosen.sort((a, b) => (Number(a.dataset.order) || 1e9) - (Number(b.dataset.order) || 1e9));
  boxes.forEach((box) => { box.parentElement.querySelector(".seat-number").textContent = ""; });
  chosen.forEach((box, index) => { box.parentElement.querySelector(".seat-number").textContent = t("seat {number}", { number: index + 1 }); });
  const order = form.querySelector("input[name=seat_order]");
  if (order) order.value = chosen.map((box) => box.value).join(",");
}

// Seats chosen before (a form sent back, "same table as last time") keep their order; a player
// just added, checked already, is seated next.
function seatInOrder(form) {
  const order = form.querySelector("input[name=seat_order]");
  (order && order.value ? order.value.split(",") : []).forEach((pk) => {
    const box = form.querySelector(`input[data-seat][value="${CSS.escape(pk)}"]`);
    if (box && box.checked && !box.dataset.order) box.dataset.order = ++tapped;
  });
  form.querySelectorAll("input[data-seat]:checked").forEach((box) => {
    if (!box.dataset.order) box.dataset.order = ++tapped;
  });
  renumberSeats(form);
}

const RULE_FIELDS = ["tile_set", "double_blank_penalty", "end_on_double_penalty", "extended", "target_score",
  "first_double", "rounds", "tie_break"];

function applyPreset(form, key) {
  const data = JSON.parse(document.getElementById("presets").textContent)[key];
  if (!data) return;
  form.elements.tile_set.value = data.tile_set;
  form.elements.double_blank_penalty.value = data.double_blank_penalty;
  form.elements.end_on_double_penalty.value = data.end_on_double_penalty;
  form.elements.extended.checked = data.extended;
  form.elements.target_score.value = data.target_score || "";
  form.elements.first_double.value = data.first_double === null ? "" : data.first_double;
  form.elements.rounds.value = data.rounds || "";
  const tieBreak = form.querySelector(`input[name=tie_break][value="${CSS.escape(data.tie_break)}"]`);
  if (tieBreak) tieBreak.checked = true;
  // A preset with a house option shows it: the section opens where the values changed.
  const house = form.querySelector("details.house-options");
  if (house && (data.first_double !== null || data.rounds || data.tie_break !== "shared")) house.open = true;
}

document.addEventListener("change", (event) => {
  const target = event.target;
  const form = target.form;
  if (!form) return;
  if (target.matches("input[data-seat]")) {
    if (target.checked) target.dataset.order = ++tapped; else delete target.dataset.order;
    renumberSeats(form);
  } else if (target.name === "preset") {
    applyPreset(form, target.value);
  } else if (RULE_FIELDS.includes(target.name)) {
    // A rule changed by hand: the rules are no longer the preset's, so no preset stays ticked.
    form.querySelectorAll("input[name=preset]").forEach((radio) => { radio.checked = false; });
  }
});

// Every form whose seats follow the taps (the new game's, the paper game's first step).
function seatForms() {
  return Array.from(document.querySelectorAll("form")).filter((form) => form.querySelector("input[data-seat]"));
}

document.addEventListener("htmx:afterSwap", (event) => {
  seatForms().forEach(seatInOrder);
  const form = document.getElementById("new-game");
  if (!form) return;
  // Keep the keyboard up for the next name.
  if (event.detail.target && event.detail.target.id === "add-player") {
    const input = document.getElementById("new-player-name");
    if (input) input.focus();
  }
});

// A name added that the scorebook already has is that player (the server says which): tick them,
// seated next, as a tap would; one ticked already keeps their seat.
document.addEventListener("tick-player", (event) => {
  const box = document.querySelector(`#new-game input[data-seat][value="${CSS.escape(String(event.detail.pk))}"]`);
  if (!box || box.checked) return;
  box.checked = true;
  box.dispatchEvent(new Event("change", { bubbles: true }));
});

document.addEventListener("DOMContentLoaded", () => seatForms().forEach(seatInOrder));
