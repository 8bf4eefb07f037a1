// A player's hand counted from a photo (issue 41): the camera beside the player's pips takes a
// photo (or one from the gallery), the phone shrinks it to 1600 pixels and sends it to
// POST /api/v1/hands/count/, and draws what came back on the photo: a box and the tile's halves on
// each tile. A tap on a tile (or on its line in the list under the photo) corrects its halves or
// removes it; a drag across a missed tile adds it. "Use 47" writes the tiles into the player's tile
// list as the tile picker does (tile-picker.js: the pips, the tiles left and the 0-0 follow from the
// set's data), and the round is saved as any other. The photo stays on this phone, in memory only:
// nothing of it is kept once the panel is closed or the page left. Offline, the camera says it
// needs a connection. The pips of each tile come from the server's tile-picker block: nothing here
// counts a pip. Loaded by hand-photo-offer.js once a photo is chosen (it shows the camera), not
// with every round form.
import { t, tn } from "./i18n.js";
import { draw, nameOf, panelHint, picked } from "./hand-photo-draw.js";
import { highFirst, inReadingOrder, prepare, refusal, send } from "./hand-photo-send.js";
import { pipsOf, tileSet, write } from "./tile-picker.js";

const DRAG = 12;  // CSS pixels a press must move to be a drag (a new tile), not a tap (a correction)
const states = new WeakMap();  // row -> {tiles: [{halves, box, doubt}], picture, selected}

function settings() {
  const block = document.getElementById("hand-photo");
  return block ? { url: block.dataset.url, highest: Number(block.dataset.tileSet) } : null;
}
// A tile added by a drag has no halves until someone picks them (null): never a 0-0 by accident.
function inSet(halves) { return picked(halves) && tileSet().pips.has(nameOf(halves)); }
function doubtOf(halves) { return picked(halves) ? (inSet(halves) ? null : t("not a tile of this set")) : t("new: pick its halves"); }
function rowOf(element) { return element.closest(".player-row"); }

function element(tag, attributes, text) {
  const made = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([key, value]) => made.setAttribute(key, value));
  if (text !== undefined) made.textContent = text;
  return made;
}

function halfPicker(index, highest) {
  const label = element("label", { class: "hand-photo-half" });
  label.append(index === 0 ? t("One half") : t("Other half"));
  const select = element("select", { "data-half": String(index) });
  select.append(element("option", { value: "" }, t("pick")));
  for (let value = 0; value <= highest; value += 1) select.append(element("option", { value: String(value) }, String(value)));
  label.append(select);
  return label;
}

function panelOf(row) {
  let panel = row.querySelector(".hand-photo");
  if (panel) return panel;
  const highest = settings().highest;
  panel = element("div", { class: "hand-photo", role: "group", "aria-label": t("{name}'s tiles from a photo", { name: row.dataset.player }) });
  const view = element("div", { class: "hand-photo-view", hidden: "" });
  const canvas = element("canvas", { class: "hand-photo-canvas", role: "img" });
  const edit = element("div", { class: "hand-photo-edit", hidden: "" });
  edit.append(
    element("p", { class: "hand-photo-edit-title" }),
    halfPicker(0, highest),
    halfPicker(1, highest),
    element("p", { class: "hand-photo-edit-note", hidden: "" }, t("Pick both halves of this tile, then Done.")),
    element("button", { type: "button", class: "secondary", "data-photo-remove": "" }, t("Remove this tile")),
    element("button", { type: "button", "data-photo-done": "" }, t("Done")),
  );
  view.append(
    canvas,
    element("p", { class: "muted hand-photo-hint" }, t("Tap a tile to correct it. Drag across a missed tile to add it.")),
    edit,
    element("ol", { class: "hand-photo-tiles" }),
  );
  const actions = element("div", { class: "hand-photo-actions" });
  actions.append(
    element("button", { type: "button", class: "big", "data-photo-use": "", hidden: "" }),
    element("button", { type: "button", class: "secondary", "data-photo-close": "" }, t("Close")),
  );
  panel.append(element("p", { class: "hand-photo-status", role: "status" }), view, actions);
  row.querySelector("details.extras").after(panel);
  listenToCanvas(row, canvas);
  return panel;
}

function say(row, text) { panelOf(row).querySelector(".hand-photo-status").textContent = text; }

export function needsConnection(row) {
  states.delete(row);
  const panel = panelOf(row);
  panel.hidden = false;
  panel.querySelector(".hand-photo-view").hidden = true;
  panel.querySelector("[data-photo-use]").hidden = true;
  say(row, t("Counting from a photo needs a connection: type the pips, or try again when you are online."));
}

export async function count(row, file) {
  const panel = panelOf(row);
  panel.hidden = false;
  if (!navigator.onLine) { needsConnection(row); return; }
  states.delete(row);
  panel.querySelector(".hand-photo-view").hidden = true;
  panel.querySelector("[data-photo-use]").hidden = true;
  say(row, t("Counting the tiles…"));
  const prepared = await prepare(file);
  let response;
  try { response = await send(prepared, settings()); } catch (error) { needsConnection(row); return; }
  if (!response.ok) { say(row, await refusal(response)); return; }
  const answer = await response.json();
  const doubts = new Map(answer.doubts.map((doubt) => [doubt.tile, doubt.reason]));
  const tiles = inReadingOrder(answer.tiles.map((tile, index) => ({
    halves: highFirst(tile.halves), box: tile.box.slice(), doubt: doubts.get(index) || doubtOf(tile.halves),
  })));
  states.set(row, { tiles, picture: prepared.picture, selected: null });
  panel.querySelector(".hand-photo-view").hidden = false;
  show(row);
  panel.querySelector(".hand-photo-canvas").scrollIntoView({ block: "nearest" });
}

// Everything drawn from the state: the photo with its boxes, the list, the editor, the totals.
function show(row) {
  const state = states.get(row);
  const panel = panelOf(row);
  draw(panel.querySelector(".hand-photo-canvas"), state);
  const list = panel.querySelector(".hand-photo-tiles");
  list.replaceChildren(...state.tiles.map((tile, index) => {
    const item = element("li");
    const button = element("button", { type: "button", class: "hand-photo-tile", "data-photo-tile": String(index) });
    button.append(element("strong", {}, nameOf(tile.halves)));
    // A space between the name and its note: read aloud as two words, never "4-4check".
    if (tile.doubt) button.append(" ", element("span", { class: "hand-photo-doubt" }, t("check: {reason}", { reason: tile.doubt })));
    button.setAttribute("aria-pressed", state.selected === index ? "true" : "false");
    item.append(button);
    return item;
  }));
  const edit = panel.querySelector(".hand-photo-edit");
  edit.hidden = state.selected === null;
  if (state.selected !== null) {
    const tile = state.tiles[state.selected];
    edit.querySelector(".hand-photo-edit-title").textContent = t("Tile {number}: {tile}", { number: state.selected + 1, tile: nameOf(tile.halves) });
    edit.querySelectorAll("select").forEach((select) => {
      const half = tile.halves[Number(select.dataset.half)];
      select.value = half === null ? "" : String(half);
    });
    edit.querySelector(".hand-photo-edit-note").hidden = picked(tile.halves);
    edit.querySelector("[data-photo-done]").disabled = !picked(tile.halves);
  }
  const doubted = state.tiles.filter((tile) => tile.doubt).length;
  const names = state.tiles.filter((tile) => picked(tile.halves)).map((tile) => nameOf(tile.halves));
  const pips = pipsOf(names);
  const use = panel.querySelector("[data-photo-use]");
  use.hidden = state.tiles.length === 0;
  use.disabled = doubted > 0;
  use.textContent = doubted ? tn("Check the {count} marked tile first", "Check the {count} marked tiles first", doubted) : t("Use {pips}", { pips });
  say(row, state.tiles.length ? tn("{count} tile found: {pips} pips.", "{count} tiles found: {pips} pips.", state.tiles.length, { pips })
    : t("No tile found: drag across each tile on the photo to add it."));
}


function select(row, index) {
  const state = states.get(row);
  state.selected = index;
  show(row);
  if (index !== null) panelOf(row).querySelector(".hand-photo-edit select").focus();
}

// A tap picks the smallest box under it; a drag draws the box of a missed tile.
function listenToCanvas(row, canvas) {
  let start = null, moved = false;
  const at = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [(event.clientX - rect.left) * (canvas.width / rect.width), (event.clientY - rect.top) * (canvas.height / rect.height)];
  };
  const far = (event) => Math.hypot(event.clientX - start.clientX, event.clientY - start.clientY) >= DRAG;
  canvas.addEventListener("pointerdown", (event) => {
    if (!states.get(row)) return;
    start = { point: at(event), clientX: event.clientX, clientY: event.clientY };
    moved = false;
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!start) return;
    moved = moved || far(event);
    if (!moved) return;
    const [x, y] = at(event);
    const state = states.get(row);
    state.dragging = [Math.min(x, start.point[0]), Math.min(y, start.point[1]), Math.abs(x - start.point[0]), Math.abs(y - start.point[1])];
    draw(canvas, state);
  });
  canvas.addEventListener("pointerup", (event) => {
    if (!start) return;
    const state = states.get(row);
    const [x, y] = at(event);
    if (moved) {
      const box = state.dragging.map(Math.round);
      state.dragging = null;
      state.tiles.push({ halves: [null, null], box, doubt: doubtOf([null, null]) });
      select(row, state.tiles.length - 1);
    } else {
      const under = state.tiles
        .map((tile, index) => ({ index, area: tile.box[2] * tile.box[3], box: tile.box }))
        .filter(({ box }) => x >= box[0] && x <= box[0] + box[2] && y >= box[1] && y <= box[1] + box[3])
        .sort((a, b) => a.area - b.area);
      if (under.length) select(row, under[0].index);
    }
    start = null;
  });
  canvas.addEventListener("pointercancel", () => {
    start = null;
    const state = states.get(row);
    if (state) { state.dragging = null; draw(canvas, state); }
  });
}

function close(row, focus) {
  states.delete(row);  // the photo goes with it
  const panel = row.querySelector(".hand-photo");
  if (panel) panel.hidden = true;
  const file = row.querySelector("[data-hand-photo] input");
  if (file) file.value = "";  // the same photo may be chosen again
  if (focus) focus.focus();
}

document.addEventListener("change", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLElement) || !box.form || box.form.id !== "round-form") return;
  if (box.matches(".hand-photo-edit select")) {
    const row = rowOf(box);
    const state = states.get(row);
    const tile = state.tiles[state.selected];
    tile.halves[Number(box.dataset.half)] = box.value === "" ? null : Number(box.value);
    tile.doubt = doubtOf(tile.halves);
    show(row);
  }
});

document.addEventListener("click", (event) => {
  const target = event.target.closest && event.target.closest("button");
  if (!target || !target.form || target.form.id !== "round-form") return;
  const row = rowOf(target);
  const state = states.get(row);
  if (target.matches("[data-photo-close]")) {
    close(row, row.querySelector("input.pips"));
  } else if (!state) {
    return;
  } else if (target.matches("[data-photo-tile]")) {
    select(row, Number(target.dataset.photoTile));
  } else if (target.matches("[data-photo-remove]")) {
    state.tiles.splice(state.selected, 1);
    select(row, null);
  } else if (target.matches("[data-photo-done]")) {
    const index = state.selected;
    if (!picked(state.tiles[index].halves)) return;  // Done is off until both halves are picked
    if (inSet(state.tiles[index].halves)) state.tiles[index].doubt = null;  // as the person says it is
    select(row, null);
    const line = panelOf(row).querySelector(`[data-photo-tile="${index}"]`);
    if (line) line.focus();
  } else if (target.matches("[data-photo-use]")) {
    if (state.tiles.some((tile) => tile.doubt)) return;  // "Check the marked tiles first"
    const form = target.form;
    write(form, row, state.tiles.map((tile) => nameOf(tile.halves)));
    close(row, null);
    const empty = Array.from(form.querySelectorAll("input.pips")).find((box) => box.value === "" && !rowOf(box).querySelector("input[data-settles]:checked"));
    (empty || document.getElementById("save-round")).focus();
  }
});

