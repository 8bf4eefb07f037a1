// One item of the outbox: made from the form as typed (a round as the API takes it, or a seat change
// through seat-outbox.js), and sent with its Idempotency-Key and the game's version it was entered
// from (If-Match; a round says its number too); the API's answer becomes its state. A round another
// phone saved first (409 round_taken) or a game changed meanwhile (412) is never saved again as the
// next round: the item waits for the person, as a clash (offline.js asks "Keep theirs" or compares).
import { t } from "./i18n.js";
import { readPips, readTiles, tilesInPipsBox } from "./tile-grammar.js";
import { account, csrfToken, isSeat, newKey, seatOutbox } from "./outbox-store.js";

// ---- one round, as typed -------------------------------------------------------------------
export async function itemFrom(form) {
  if (form.dataset.kind) {  // a seat change (seat-outbox.js)
    return (await seatOutbox()).seatItemFrom(form, {
      key: form.dataset.key || (form.dataset.key = newKey()), account: account(), game: form.dataset.game,
      url: new URL(form.action, location.href).pathname, api: form.dataset.api, sheet: form.dataset.outbox,
      created: Date.now(), state: "waiting", errors: [], confirm: "", version: versionIn(form),
    });
  }
  const fields = Array.from(new FormData(form).entries()).filter(([name]) => name !== "csrfmiddlewaretoken" && name !== "version");
  const entries = Array.from(form.querySelectorAll(".player-row")).map((row) => {
    const value = (selector) => { const box = row.querySelector(selector); return box ? box.value.trim() : ""; };
    const ticked = (selector) => { const box = row.querySelector(selector); return Boolean(box && box.checked); };
    const parts = [];
    if (ticked("input.went_out")) parts.push(ticked("input.ended_on_double") ? t("out on a double") : t("out"));
    const pips = value("input.pips") ? readPips(value("input.pips")) ?? value("input.pips") : "";
    if (pips !== "" && !(ticked("input.went_out") && pips === 0)) parts.push(t("{pips} pips", { pips }));
    if (value("input.tile-list")) parts.push(value("input.tile-list"));
    if (ticked("input.double_blank")) parts.push(t("held the 0-0"));
    return `${row.dataset.player}: ${parts.join(", ") || "–"}`;
  });
  return {
    key: form.dataset.key || (form.dataset.key = newKey()),
    account: account(),
    game: form.dataset.game,
    url: new URL(form.action, location.href).pathname,  // the page's form, to fix a refused round in
    api: form.dataset.api,  // where it is sent
    sheet: form.dataset.outbox,
    double: Number(new FormData(form).get("starting_double")),
    version: versionIn(form),  // sent as If-Match; moved on by the rounds this phone saves before it (offline.js)
    body: bodyOf(fields), entries, fields, created: Date.now(), state: "waiting", errors: [], confirm: "",
  };
}

// The game's version a form was drawn from (its hidden field), or null.
function versionIn(form) {
  const value = String(new FormData(form).get("version") || "").trim();
  return /^\d+$/.test(value) ? Number(value) : null;
}

// The game's version an answer's ETag names ("game-1-v7", a round's "game-1-round-3-v7"), or null.
export function versionOf(etag) {
  const found = /-v(\d+)"$/.exec(etag || "");
  return found ? Number(found[1]) : null;
}

// The If-Match header of an item: the game's ETag at the version it was entered from.
export function ifMatch(item) {
  return Number.isInteger(item.version) ? { "If-Match": `"game-${item.game}-v${item.version}"` } : {};
}

// The round as the API takes it (RoundWriteSerializer), read from the form's fields as the page's
// form reads them (forms.RoundForm.entries): an empty pips box is sent as none, for the server to
// read as it reads the page's (rules: check 10; the player who went out holds 0); a typed tile list
// is parted with the server's tile grammar (tile-grammar.js), every part sent for the server to
// read (or refuse, naming the player). A surprising round is asked about (`confirm`
// false) unless the form answered the questions already (the key in its "confirmed" field).
export function bodyOf(fields) {
  const players = new Map();
  let double = null, confirm = false, number = null;
  fields.forEach(([name, value]) => {
    if (name === "starting_double") { double = Number(value); return; }
    if (name === "number") { number = String(value).trim() === "" ? null : Number(value); return; }
    if (name === "confirmed") { confirm = value || false; return; }
    // A newcomer seated on this phone and not yet on the server has a stand-in id (negative).
    const found = /^p(-?\d+)_(pips|tiles_left|tiles|went_out|double_blank|ended_on_double)$/.exec(name);
    if (!found) return;
    if (!players.has(found[1])) players.set(found[1], {});
    players.get(found[1])[found[2]] = value;
  });
  const entries = Array.from(players, ([player, typed]) => {
    const number = (text) => (text === undefined || String(text).trim() === "" ? null : Number(text));
    let tiles = typed.tiles && typed.tiles.trim() ? partsOf(typed.tiles) : null;
    // Tiles typed in the pips box ("8-6 3-2") are the list, as the page's form reads them (forms.PipsField).
    if (tiles === null && typed.pips && tilesInPipsBox(typed.pips)) { tiles = partsOf(typed.pips); typed.pips = ""; }
    const wentOut = "went_out" in typed;
    // A sum as the table counts it ("12+9+4") goes as its total; what reads as no number goes as
    // typed, for the server to refuse naming the player.
    const pips = number(typed.pips) === null ? null : readPips(typed.pips) ?? typed.pips.trim();
    const entry = { player: Number(player), went_out: wentOut, ended_on_double: "ended_on_double" in typed };
    if (pips !== null) entry.pips = pips;
    if (number(typed.tiles_left) !== null) entry.tiles_left = number(typed.tiles_left);
    if (tiles !== null) entry.tiles = tiles;
    if ("double_blank" in typed) entry.double_blank = true;
    else if (tiles === null) entry.double_blank = false;
    return entry;
  });
  return Object.assign({ starting_double: double, entries, confirm }, number === null ? {} : { number });
}
function partsOf(text) {
  const read = readTiles(text);
  return read ? read.tiles.concat(read.refused) : [text];  // without the grammar (an older round), as typed
}

// What the API says is wrong with a round: the rules' messages, or each field's.
function messagesOf(data, status) {
  if (Array.isArray(data.errors)) return data.errors.map((error) => error.message);
  if (typeof data.detail === "string") return [data.detail];
  const found = [];
  (function walk(value) {
    if (typeof value === "string") found.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  })(data);
  return found.length ? found : [t("The server refused this round ({status}).", { status })];
}

// POST /api/v1/games/{id}/rounds/ with the session (and its CSRF token) and the item's key: the
// round command's answer, as the API gives it, becomes the item's state.
async function request(url, method, body, headers) {
  let response, data = null;
  try {
    response = await fetch(url, { method, body: body === null ? undefined : JSON.stringify(body), credentials: "same-origin", headers });
  } catch (error) {
    return null;  // no connection, or the answer was lost: the same key goes again
  }
  if ((response.headers.get("Content-Type") || "").startsWith("application/json")) data = await response.json().catch(() => null);
  return { status: response.status, data, etag: response.headers.get("ETag") };
}

export async function send(item) {
  const headers = { "Content-Type": "application/json", "Accept": "application/json", "Idempotency-Key": item.key,
                    "X-CSRFToken": csrfToken() };
  if (item.account) headers["X-Account"] = item.account;
  let answer;
  if (isSeat(item)) {
    answer = await (await seatOutbox()).sendSeat(item, headers, request, ifMatch(item));
  } else {
    const url = item.api || `/api/v1/games/${item.game}/rounds/`;  // a round queued before rounds went to the API
    const body = item.body || bodyOf(item.fields);
    const known = body.entries.some((entry) => entry.player < 0) ? (await seatOutbox()).resolved : (id) => id;
    const entries = body.entries.map((entry) => Object.assign({}, entry, { player: known(entry.player) }));
    if (entries.some((entry) => entry.player === null)) return { state: "waiting" };  // its newcomer is not made yet
    answer = await request(url, "POST", Object.assign({}, body, { entries }), Object.assign({}, headers, ifMatch(item)));
  }
  if (answer === null) return { state: "waiting" };
  const response = { status: answer.status }, data = answer.data;
  if (response.status === 201 || (isSeat(item) && response.status === 200)) return { state: "saved", version: versionOf(answer.etag) };
  if (!data || response.status >= 500 || data.code === "request_in_progress") return { state: "waiting" };  // later
  // The session ended, or is another account's now (signed in on another tab): it waits for its own.
  if (response.status === 401) return { state: "waiting", note: t("Log in again to send it.") };
  if (data.code === "other_account") return { state: "waiting", note: data.detail };
  if (response.status === 403) return { state: "refused", errors: [t("You may not record rounds in this game (or your session ended: log in again).")] };
  // Needs confirmation (the questions, and the key that answers them), a clash, or invalid.
  if (data.code === "confirmation_needed") return { state: "refused", errors: data.surprises, confirm: data.confirm };
  if (response.status === 412) return { state: "refused", clash: true, errors: [isSeat(item)
    ? t("The game changed since this change was entered: nothing was saved. Fix it or discard it.")
    : t("The game changed since this round was entered: nothing was saved. Compare it with the game as it is now.")] };
  if (data.round && !isSeat(item)) return { state: "refused", clash: true, errors: messagesOf(data, response.status) };
  return { state: "refused", errors: messagesOf(data, response.status) };
}

