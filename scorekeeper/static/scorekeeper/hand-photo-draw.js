// The photo of a hand as hand-photo.js shows it: a box on each tile found (dashed where the server
// doubts it, yellow for the one selected), the tile's halves in a label beside its box, and the box
// a drag is drawing. Drawn on the canvas at the photo's own size.
import { tn } from "./i18n.js";

export function picked(halves) { return halves.every((half) => half !== null); }
export function nameOf(halves) { return picked(halves) ? `${Math.max(...halves)}-${Math.min(...halves)}` : halves.map((half) => (half === null ? "?" : half)).join("-"); }
export function panelHint(canvas) { return canvas.parentElement.querySelector(".hand-photo-hint"); }

export function draw(canvas, state) {
  const picture = state.picture;
  canvas.hidden = !picture;
  panelHint(canvas).hidden = !picture || !state.tiles.length;  // with no tile the status says to drag
  if (!picture) return;
  canvas.width = picture.width;
  canvas.height = picture.height;
  canvas.setAttribute("aria-label", tn("The photo, {count} tile marked", "The photo, {count} tiles marked", state.tiles.length));
  const context = canvas.getContext("2d");
  context.drawImage(picture, 0, 0);
  const line = Math.max(2, Math.round(Math.max(canvas.width, canvas.height) / 320));
  const shown = canvas.getBoundingClientRect().width || canvas.width / 4;
  const font = Math.round(12 * (canvas.width / shown));  // 12 CSS pixels however far the photo is shrunk
  context.font = `700 ${font}px system-ui, sans-serif`;
  context.textBaseline = "top";
  const colours = state.tiles.map((tile, index) => (index === state.selected ? "#facc15" : tile.doubt ? "#f97316" : "#22c55e"));
  state.tiles.forEach((tile, index) => {
    context.lineWidth = index === state.selected ? line * 2 : line;
    context.setLineDash(tile.doubt ? [line * 3, line * 2] : []);
    context.strokeStyle = colours[index];
    context.strokeRect(...tile.box);
  });
  const placed = [];
  state.tiles.forEach((tile, index) => {  // the labels after every box: no box is drawn over one
    const label = nameOf(tile.halves);
    const spot = labelSpot(canvas, state.tiles, placed, tile.box, [context.measureText(label).width + font / 2, font * 1.2]);
    placed.push(spot);
    context.fillStyle = "rgba(15, 23, 42, .72)";
    context.fillRect(...spot);
    context.fillStyle = colours[index];
    context.fillText(label, spot[0] + font / 4, spot[1] + font / 10);
  });
  if (state.dragging) {
    const [x, y, w, h] = state.dragging;
    context.setLineDash([line * 2, line * 2]);
    context.strokeStyle = "#facc15";
    context.lineWidth = line;
    context.strokeRect(x, y, w, h);
  }
}
// Where a tile's label goes: just outside its box (above, below, left, right), where it covers no
// other tile and no other label; else where it covers least, the pips of its own tile last.
function labelSpot(canvas, tiles, placed, box, size) {
  const [x, y, w, h] = box;
  const [lw, lh] = size;
  const fit = ([sx, sy]) => [Math.min(Math.max(sx, 0), canvas.width - lw), Math.min(Math.max(sy, 0), canvas.height - lh), lw, lh];
  const spots = [[x, y - lh], [x, y + h], [x - lw, y], [x + w, y], [x, y]].map(fit);
  const overlap = (a, b) => Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  const cost = (spot) => tiles.reduce((sum, tile) => sum + overlap(spot, tile.box), 0) + placed.reduce((sum, other) => sum + 4 * overlap(spot, other), 0);
  return spots.reduce((best, spot) => (cost(spot) < cost(best) ? spot : best));
}
