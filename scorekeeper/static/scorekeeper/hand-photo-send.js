// A photo of a hand on its way to the server (hand-photo.js draws what comes back): shrunk on the
// phone to what the server counts, sent to POST /api/v1/hands/count/ (tried again while the server
// is busy counting other photos), a refusal put in words a person can act on, and the tiles that
// come back put in the order a person reads the photo.
import { t } from "./i18n.js";
import { csrfToken } from "./outbox-store.js";

const LONG_SIDE = 1600;  // the server counts no more than this; a smaller upload is a faster one
const BUSY_TRIES = 3;

// The photo as the phone shows it (turned as its EXIF says), at most LONG_SIDE pixels, as a JPEG to
// send; or, when this browser cannot draw it (a HEIC on some phones), the file itself and no picture.
export async function prepare(file) {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
    const picture = document.createElement("canvas");
    picture.width = Math.max(1, Math.round(bitmap.width * scale));
    picture.height = Math.max(1, Math.round(bitmap.height * scale));
    picture.getContext("2d").drawImage(bitmap, 0, 0, picture.width, picture.height);
    bitmap.close();
    const blob = await new Promise((resolve) => picture.toBlob(resolve, "image/jpeg", 0.9));
    if (blob) return { blob, name: "hand.jpg", picture };
  } catch (error) { /* sent as it is, counted all the same */ }
  return { blob: file, name: file.name || "hand", picture: null };
}

function wait(seconds) { return new Promise((resolve) => setTimeout(resolve, seconds * 1000)); }

export async function send(prepared, { url, highest }) {
  const body = new FormData();
  body.append("image", prepared.blob, prepared.name);
  body.append("tile_set", String(highest));
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url, {
      method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
    });
    if (response.status !== 503 || attempt >= BUSY_TRIES) return response;
    await wait(Number(response.headers.get("Retry-After")) || 1);  // the server is counting other photos
  }
}

export async function refusal(response) {
  let body = {};
  try { body = await response.json(); } catch (error) { body = {}; }
  if (response.status === 400) return (body.image || body.tile_set || [t("The photo could not be counted.")])[0];
  if (response.status === 401 || response.status === 403) return t("Sign in again to count from a photo.");
  if (response.status === 429 && body.detail) return body.detail;
  return t("The photo could not be counted: try again, or type the pips.");
}

// A tile's halves as its name says them ("8-6"): the editor's first box is the name's first number.
export function highFirst(halves) { return halves.slice().sort((a, b) => b - a); }
// The tiles as a person reads the photo: row by row from the top, each row from the left (a tile
// whose centre is within half a tile's height of a row's first is on that row).
export function inReadingOrder(tiles) {
  const centre = (tile) => [tile.box[0] + tile.box[2] / 2, tile.box[1] + tile.box[3] / 2];
  const heights = tiles.map((tile) => Math.min(tile.box[2], tile.box[3])).sort((a, b) => a - b);
  const reach = (heights[Math.floor(heights.length / 2)] || 0) / 2;
  const rows = [];
  tiles.slice().sort((a, b) => centre(a)[1] - centre(b)[1]).forEach((tile) => {
    const row = rows.find((found) => Math.abs(centre(found[0])[1] - centre(tile)[1]) <= reach);
    if (row) row.push(tile); else rows.push([tile]);
  });
  return rows.flatMap((row) => row.sort((a, b) => centre(a)[0] - centre(b)[0]));
}
