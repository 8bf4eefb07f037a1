// The new game page: each chosen player's chance to win, from the current ratings, shown beside
// their name and worked out again as players are ticked (GET /api/v1/odds/ with the page's session).
// The form says where to ask (data-odds-url, data-scorebook); the words come from the catalogue.
import { lang, t } from "./i18n.js";

let asked = 0;  // the latest question: an older answer arriving late is dropped

function chosen(form) {
  const order = form.querySelector("input[name=seat_order]");
  return order && order.value ? order.value.split(",") : [];
}

function show(form, chances) {
  const percent = new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 });
  form.querySelectorAll("input[data-seat]").forEach((box) => {
    const label = box.parentElement;
    let chance = label.querySelector(".win-chance");
    const value = chances.get(box.value);
    if (value === undefined) {
      if (chance) chance.remove();
      return;
    }
    if (!chance) {
      chance = document.createElement("span");
      chance.className = "win-chance";
      label.appendChild(chance);
    }
    chance.textContent = t("{percent} to win", { percent: percent.format(value / 100) });
  });
  const note = form.querySelector("#odds-note");
  if (note) note.hidden = chances.size === 0;
}

async function update(form) {
  const players = chosen(form);
  const question = ++asked;
  if (players.length < 2) {
    show(form, new Map());
    return;
  }
  const url = `${form.dataset.oddsUrl}?players=${players.join(",")}&scorebook=${form.dataset.scorebook}`;
  try {
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok || question !== asked) return;
    const body = await response.json();
    if (question !== asked) return;
    // Whole percents adding up to 100% as shown (the server's largest remainder: rules/percents.py).
    show(form, new Map(body.players.map((row) => [String(row.player), row.win_percent])));
  } catch (error) {
    // Offline, or the server away: the chances are a nicety, the form works without them.
  }
}

function oddsForm() {
  const form = document.getElementById("new-game");
  return form && form.dataset.oddsUrl ? form : null;
}

// After new-game.js has numbered the seats (its listeners were registered first: app.js).
document.addEventListener("change", (event) => {
  const form = oddsForm();
  if (form && event.target.matches && event.target.matches("input[data-seat]")) update(form);
});
document.addEventListener("htmx:afterSwap", () => {
  const form = oddsForm();
  if (form) update(form);
});
document.addEventListener("DOMContentLoaded", () => {
  const form = oddsForm();
  if (form) update(form);
});
