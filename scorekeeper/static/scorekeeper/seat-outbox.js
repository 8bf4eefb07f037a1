// A seat change (someone joins, leaves or takes over) saved on the phone waits in the same outbox as
// the rounds, in order, and is sent once (its Idempotency-Key): offline.js keeps and sends the
// items, this module knows what a seat change holds. A new player typed by name is made first
// (POST /api/v1/players/, with a key of its own), then seated; until then the rounds queued after it
// name the newcomer by a stand-in id (negative) that is replaced by the real one before they are sent.
import { t } from "./i18n.js";

const PLACEHOLDERS = "scorekeeper-placeholders";  // stand-in id -> the player's id, once made

export const isSeat = (item) => item.kind === "seat";

function placeholders() {
  try { return JSON.parse(localStorage.getItem(PLACEHOLDERS)) || {}; } catch (error) { return {}; }
}
function remember(stand, id) {
  const known = placeholders();
  known[stand] = id;
  localStorage.setItem(PLACEHOLDERS, JSON.stringify(known));
}
export function resolved(id) {
  return id < 0 ? placeholders()[id] || null : id;
}

// What the page's seat form says, as an outbox item (the page's form itself, to fix a refused one).
export function seatItemFrom(form, base) {
  const data = new FormData(form);
  const kind = form.dataset.kind;
  const number = (name) => (data.get(name) ? Number(data.get(name)) : null);
  const choice = (name) => { const box = form.querySelector(`input[name="${name}"]:checked`); return box ? box.closest("label").textContent.trim() : ""; };
  let player = number("player");
  let name = (data.get("name") || "").trim();
  if (player === null && name) {  // a name of the scorebook's: that player, as the page's form does
    const same = Array.from(form.querySelectorAll('input[name="player"]')).find((box) => box.closest("label").textContent.trim().toLowerCase() === name.toLowerCase());
    if (same) { player = Number(same.value); name = ""; }
  }
  const who = player !== null ? choice("player") || name : name;
  const replaces = number("replaces");
  const label = kind === "join" ? t("{name} joins", { name: who })
    : kind === "leave" ? t("{name} leaves", { name: who })
    : t("{name} takes over from {other}", { name: who, other: choice("replaces") });
  return Object.assign(base, {
    kind: "seat", change: kind, label, who, newName: player === null ? name : "",
    stand: player === null ? -Date.now() : null,  // the stand-in id of a player made by name
    player, replaces, after: number("after"), joinTotal: data.get("join_total") || null,
    players: form.dataset.players, scorebook: Number(form.dataset.scorebook),
    fields: Array.from(data.entries()).filter(([field]) => field !== "csrfmiddlewaretoken" && field !== "version"),
  });
}

// Sends the item: the new player first, then the change. Returns {status, data} of the last answer
// (or {made} when the player was made and the item must be kept with its id), null without a connection.
// The change goes with the game's version it was entered from (`ifMatch`): a game changed since is a 412.
export async function sendSeat(item, headers, request, ifMatch = {}) {
  if (item.player === null && item.newName) {
    const made = await request(item.players, "POST", { name: item.newName, scorebook: item.scorebook },
      Object.assign({}, headers, { "Idempotency-Key": `${item.key}-player` }));
    if (!made) return null;
    if (made.status !== 201) return made;
    item.player = made.data.id;
    remember(item.stand, item.player);
  }
  const sent = Object.assign({}, headers, ifMatch);
  if (item.change === "leave") return request(`${item.api}${item.player}/`, "DELETE", null, sent);
  const body = { player: item.player };
  if (item.change === "take_over") body.replaces = item.replaces;
  else if (item.after !== null) body.after = item.after;
  if (item.change === "join" && item.joinTotal) body.join_total = item.joinTotal;  // chosen at the door
  return request(item.api, "POST", body, sent);
}

// A round form drawn before the seat changes waiting on this phone: the rows follow them (who left
// or was taken over goes, a newcomer gets a row of their own, copied from the last one).
export function seatRows(form, seats) {
  const rows = form.querySelector(".rows");
  if (!rows) return;
  seats.forEach((item) => {
    const gone = item.change === "leave" ? item.player : item.change === "take_over" ? item.replaces : null;
    if (gone !== null) {
      const row = rows.querySelector(`.player-row[data-player-id="${gone}"]`);
      if (row) row.remove();
    }
    if (item.change === "leave") return;
    const id = item.player !== null ? item.player : item.stand;
    const model = rows.querySelector(".player-row:last-of-type");
    if (!model || rows.querySelector(`.player-row[data-player-id="${id}"]`)) return;
    const row = model.cloneNode(true);
    const old = model.dataset.playerId;
    row.id = `row-${id}`;
    row.dataset.playerId = String(id);
    row.dataset.player = item.who;
    row.querySelectorAll("[name], [id], [for]").forEach((element) => {
      ["name", "id", "for"].forEach((attribute) => {
        const value = element.getAttribute(attribute);
        if (value) element.setAttribute(attribute, value.replace(`p${old}_`, `p${id}_`));
      });
      if (element.matches("input[type=checkbox]")) element.checked = false;
      else if (element.matches("input")) element.value = "";
    });
    row.querySelectorAll(".errorlist, .theirs, output").forEach((element) => { element.textContent = ""; });
    row.querySelector("legend").textContent = item.who;
    const label = row.querySelector("label.name");
    if (label) label.firstChild.textContent = item.who;
    rows.append(row);
  });
}
