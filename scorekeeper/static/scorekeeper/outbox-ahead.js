// The page as it will be once the rounds and seat changes waiting on this phone reach the server: the
// round form's doubles and number (its title and the number it sends), the sheet's "Enter round …" and "… shuffles next". What the rules
// open after each round comes from the server as data ("doubles-ahead" blocks, the seating block).
import { t } from "./i18n.js";
import { isSeat, seatOutbox } from "./outbox-store.js";

// A round form drawn before the rounds waiting on this phone offers the doubles the rules open
// after them, expected first: the form's "doubles-ahead" block (rules.game.doubles_ahead) says,
// from where the game was, which doubles each round may start with and where it leaves the game.
export function adjustRoundForm(items) {
  const form = document.getElementById("round-form");
  const block = document.getElementById("doubles-ahead");
  if (!form || !form.dataset.outbox || form.dataset.adjusted || !block) return;
  const queued = items.filter((item) => item.game === form.dataset.game && item.state === "waiting");
  const waiting = queued.filter((item) => !isSeat(item));
  if (!queued.length) return;
  form.dataset.adjusted = "1";
  const seated = queued.filter(isSeat);
  if (seated.length) seatOutbox().then((module) => module.seatRows(form, seated));  // the table as they left it
  if (!waiting.length) return;
  const ahead = JSON.parse(block.textContent);
  const place = placeAfter(ahead, waiting);
  if (place === null) return;
  const select = form.elements.starting_double;
  const picked = select.selectedIndex >= 0 && !select.options[select.selectedIndex].defaultSelected ? select.value : null;
  select.replaceChildren(...ahead.open[place].map(([double]) => new Option(`${double}-${double}`, String(double))));
  if (picked !== null && ahead.open[place].some(([double]) => String(double) === picked)) select.value = picked;  // tapped already
  const number = Number(form.dataset.nextNumber) + waiting.length;
  const title = document.getElementById("round-title");
  if (title) title.textContent = t("Round {number}", { number });
  if (form.elements.number) form.elements.number.value = String(number);  // the round it is entered as
}

// Where the rounds waiting on this phone leave the game, in a "doubles-ahead" block's places; null
// when one is not a round the game could take next (the server has it already).
function placeAfter(ahead, waiting) {
  let place = ahead.start;
  for (const item of waiting) {
    const step = (ahead.open[place] || []).find(([double]) => double === item.double);
    if (!step) return null;
    place = step[1];
  }
  return place;
}

// The sheet's "Enter round 7-7" and "this round: 7-7" name the double that comes after the rounds
// waiting on this phone (its "sheet-doubles-ahead" block, as the round form's), not the one the
// server knows last; "… shuffles next" moves on as they do (shufflerAfter).
export function adjustEnterButton(items) {
  const enter = document.getElementById("enter-round");
  const block = document.getElementById("sheet-doubles-ahead");
  const outboxOf = document.getElementById("outbox");
  if (!enter || !block || !outboxOf) return;
  const strong = document.querySelector("#this-round strong");
  if (enter.dataset.drawn === undefined) enter.dataset.drawn = enter.textContent;
  if (strong && strong.dataset.drawn === undefined) strong.dataset.drawn = strong.textContent;
  const queued = items.filter((item) => item.game === outboxOf.dataset.game && item.state === "waiting");
  const waiting = queued.filter((item) => !isSeat(item));
  const ahead = JSON.parse(block.textContent);
  const place = waiting.length ? placeAfter(ahead, waiting) : null;
  const next = place === null ? null : (ahead.open[place] || [])[0];
  enter.textContent = next ? t("Enter round {double}", { double: `${next[0]}-${next[0]}` }) : enter.dataset.drawn;
  if (strong) strong.textContent = next ? `${next[0]}-${next[0]}` : strong.dataset.drawn;
  adjustShuffler(queued, !waiting.length || place !== null);
}

// Who shuffles for the next round of `seated` players after `last` shuffled: the next seated player
// around the table in seat `order` (rules.seating.next_shuffler).
function nextShuffler(order, seated, last) {
  if (!seated.length) return null;
  const start = order.indexOf(last);
  if (start < 0) return seated[0];
  for (let step = 1; step <= order.length; step += 1) {
    const player = order[(start + step) % order.length];
    if (seated.includes(player)) return player;
  }
  return null;
}

// "… shuffles next" past the changes waiting on this phone, in order: each waiting round is shuffled
// by who shuffles now, the next seated player after them shuffles the one after; a seat change
// waiting moves the table (a newcomer sits where the change says, a shuffler taken over hands the
// tiles to the newcomer, one who left to the next seated player). `counts`: false when a waiting
// round is one the server has already (the page is behind it): the sheet's own words stand.
function adjustShuffler(queued, counts) {
  const line = document.getElementById("shuffles-next");
  const block = document.getElementById("sheet-seating");
  const name = line && line.querySelector("bdi");
  if (!line || !block || !name || !line.dataset.player) return;
  if (name.dataset.drawn === undefined) name.dataset.drawn = name.textContent;
  const seating = JSON.parse(block.textContent);
  const names = new Map(seating.order);
  const order = seating.order.map(([id]) => id);
  let seated = seating.seated.slice();
  let now = Number(line.dataset.player);
  for (const item of counts ? queued : []) {
    if (!isSeat(item)) {
      const after = nextShuffler(order, seated, now);
      if (after !== null) now = after;
      continue;
    }
    const id = item.player !== null ? item.player : item.stand;
    const gone = item.change === "leave" ? item.player : item.change === "take_over" ? item.replaces : null;
    if (item.change !== "leave" && !order.includes(id)) {
      const anchor = item.change === "take_over" ? item.replaces : item.after;
      const index = anchor !== null && order.includes(anchor) ? order.indexOf(anchor) + 1 : order.length;
      order.splice(index, 0, id);
      names.set(id, item.who);
    }
    const sitting = new Set(seated);
    if (gone !== null) sitting.delete(gone);
    if (item.change !== "leave") sitting.add(id);
    seated = order.filter((player) => sitting.has(player));
    if (now === gone) now = item.change === "take_over" ? id : nextShuffler(order, seated, now);
  }
  name.textContent = now === Number(line.dataset.player) ? name.dataset.drawn : names.get(now) || name.dataset.drawn;
}

