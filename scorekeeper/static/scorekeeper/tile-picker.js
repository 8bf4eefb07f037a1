// Tap the tiles: for each player, the set's tiles as domino faces. Tiles on the table (the
// round's double) or in another player's list are disabled; tapping writes the player's tile list
// (the same text box that works without scripts) and fills pips, tiles left and the 0-0 chip.
// The tiles, their pips, the 0-0 and the tile each double puts on the table come from the server
// (rules/tiles.py picker(), the "tile-picker" data block): nothing here counts a pip.
import { t, tn } from "./i18n.js";
import { readTiles } from "./tile-grammar.js";

let pickerBlock = null, set = null;
export function tileSet() {  // {tiles: [[name, pips], ...] highest first, pips: Map, double_blank, on_table}
  const block = document.getElementById("tile-picker");
  if (block !== pickerBlock) {
    pickerBlock = block;
    set = block ? JSON.parse(block.textContent) : { tiles: [], on_table: {} };
    set.pips = new Map(set.tiles);
    set.order = new Map(set.tiles.map(([name], index) => [name, index]));
  }
  return set;
}

function listed(text) {
  const read = readTiles(text);
  return read ? read.tiles : [];
}
export function pipsOf(tiles) { return tiles.reduce((total, tile) => total + (tileSet().pips.get(tile) || 0), 0); }
function rowsOf(form) { return Array.from(form.querySelectorAll(".player-row")); }
function listBox(row) { return row.querySelector("input.tile-list"); }

function taken(form, row) {
  const out = new Set();
  const double = form.elements.starting_double && form.elements.starting_double.value;
  const onTable = double ? tileSet().on_table[double] : undefined;
  if (onTable) out.add(onTable);
  rowsOf(form).filter((other) => other !== row).forEach((other) => listed(listBox(other).value).forEach((tile) => out.add(tile)));
  return out;
}

function build(form, row) {
  const panel = row.querySelector(".picker");
  const grid = document.createElement("div");
  grid.className = "tiles-grid";
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", t("{name}'s tiles", { name: row.dataset.player }));
  tileSet().tiles.forEach(([tile]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile";
    button.dataset.tile = tile;
    button.setAttribute("aria-label", tile);
    button.setAttribute("aria-pressed", "false");
    tile.split("-").forEach((n) => {  // its two faces, as its name shows them
      const half = document.createElement("span");
      half.dataset.n = n;
      half.textContent = n;
      button.appendChild(half);
    });
    grid.appendChild(button);
  });
  const sum = document.createElement("p");
  sum.className = "picker-sum";
  sum.setAttribute("aria-live", "polite");
  const done = document.createElement("button");
  done.type = "button";
  done.className = "big picker-done";
  done.dataset.pickerDone = "";
  done.textContent = t("Done");
  panel.append(sum, grid, done);
}

function refresh(form) {
  rowsOf(form).forEach((row) => {
    const panel = row.querySelector(".picker");
    if (!panel || !panel.firstChild) return;
    const mine = new Set(listed(listBox(row).value));
    const blocked = taken(form, row);
    panel.querySelectorAll("button.tile").forEach((button) => {
      const tile = button.dataset.tile;
      button.setAttribute("aria-pressed", mine.has(tile) ? "true" : "false");
      button.disabled = blocked.has(tile) && !mine.has(tile);
    });
    const pips = pipsOf(Array.from(mine));
    const count = mine.size;
    const parts = [tn("{count} tile", "{count} tiles", count), t("{pips} pips", { pips: pips })];
    if (mine.has(tileSet().double_blank)) parts.push(t("holds the 0-0"));
    panel.querySelector(".picker-sum").textContent = `${row.dataset.player}: ${parts.join(", ")}`;
  });
}

// A typed list says what it adds up to as it is typed, as the picker does: "2 tiles, 14 pips", and
// what is not a tile of the set (the server refuses it on saving, naming the player).
function showListSum(row) {
  const shown = row.querySelector("output.list-sum");
  const box = listBox(row);
  if (!shown || !box) return;
  const read = box.value.trim() ? readTiles(box.value) : null;
  if (!read) { shown.textContent = ""; return; }
  const parts = [tn("{count} tile", "{count} tiles", read.tiles.length), t("{pips} pips", { pips: pipsOf(read.tiles) })];
  if (read.refused.length) parts.push(t("not a tile: {parts}", { parts: read.refused.join(" ") }));
  shown.textContent = parts.join(", ");
}

export function write(form, row, tiles) {
  const order = tileSet().order;
  const sorted = tiles.slice().sort((x, y) => order.get(x) - order.get(y));  // as the picker lays them out
  listBox(row).value = sorted.join(" ");
  const pips = row.querySelector("input.pips");
  const left = row.querySelector("input.tiles");
  pips.value = sorted.length ? String(pipsOf(sorted)) : "";
  left.value = sorted.length ? String(sorted.length) : "";
  row.querySelector("input.double_blank").checked = sorted.includes(tileSet().double_blank);
  showListSum(row);
  // A hand of tiles is no hand of one who went out: the boxes that settle it (going out) untick.
  if (sorted.length) row.querySelectorAll("input[data-settles]").forEach((box) => { box.checked = false; });
  refresh(form);
}

document.addEventListener("click", (event) => {
  const target = event.target.closest && event.target.closest("button");
  if (!target || !target.form || target.form.id !== "round-form") return;
  const form = target.form;
  const row = target.closest(".player-row");
  if (target.matches("[data-pick-tiles]")) {
    const panel = row.querySelector(".picker");
    if (!panel.firstChild) build(form, row);
    panel.hidden = !panel.hidden;
    target.setAttribute("aria-expanded", panel.hidden ? "false" : "true");
    refresh(form);
  } else if (target.matches("button.tile")) {
    const mine = listed(listBox(row).value);
    const tile = target.dataset.tile;
    write(form, row, mine.includes(tile) ? mine.filter((other) => other !== tile) : mine.concat([tile]));
  } else if (target.matches("[data-picker-done]")) {
    row.querySelector(".picker").hidden = true;
    row.querySelector("[data-pick-tiles]").setAttribute("aria-expanded", "false");
    row.querySelector("details.extras").open = false;
    const empty = Array.from(form.querySelectorAll("input.pips")).find((box) => box.value === "" && !box.closest(".player-row").querySelector("input[data-settles]:checked"));
    (empty || document.getElementById("save-round")).focus();
  }
});

document.addEventListener("input", (event) => {
  const box = event.target;
  if (!box.form || box.form.id !== "round-form" || !box.matches("input.tile-list")) return;
  showListSum(box.closest(".player-row"));
  refresh(box.form);
});
document.addEventListener("change", (event) => {
  const box = event.target;
  if (box.form && box.form.id === "round-form" && box.name === "starting_double") refresh(box.form);
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("#round-form [data-pick-tiles]").forEach((button) => { button.hidden = false; });
  document.querySelectorAll("#round-form .player-row").forEach(showListSum);
});
document.addEventListener("htmx:afterSettle", () => document.querySelectorAll("#round-form .player-row").forEach(showListSum));
