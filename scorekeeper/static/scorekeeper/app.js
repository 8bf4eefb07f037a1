// Small enhancements; every page works without them. Delegated listeners survive htmx swaps.

// The scripts' words in the page's language: base.html carries them as a JSON data block
// (scorekeeper/i18n.py), looked up by their English text; {name} fields are filled in.
window.scorekeeperText = (function () {
  "use strict";
  let strings = null;
  function table() {
    if (strings === null) {
      try { strings = JSON.parse(document.getElementById("script-strings").textContent); } catch (error) { strings = {}; }
    }
    return strings;
  }
  function fill(text, params) {
    return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
  }
  function t(english, params) { return fill(typeof table()[english] === "string" ? table()[english] : english, params); }
  function tn(singular, plural, count, params) {
    const forms = Array.isArray(table()[singular]) ? table()[singular] : [singular, plural];
    return fill(count === 1 ? forms[0] : forms[1], Object.assign({ count: count }, params));
  }
  return { t: t, tn: tn, lang: () => document.documentElement.lang || undefined };
})();

(function () {
  "use strict";
  let tapped = 0;

  function renumberSeats(form) {
    const boxes = Array.from(form.querySelectorAll("input[data-seat]"));
    const chosen = boxes.filter((box) => box.checked);
    chosen.sort((a, b) => (Number(a.dataset.order) || 1e9) - (Number(b.dataset.order) || 1e9));
    boxes.forEach((box) => { box.parentElement.querySelector(".seat-number").textContent = ""; });
    chosen.forEach((box, index) => { box.parentElement.querySelector(".seat-number").textContent = window.scorekeeperText.t("seat {number}", { number: index + 1 }); });
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

  function applyPreset(form, key) {
    const data = JSON.parse(document.getElementById("presets").textContent)[key];
    if (!data) return;
    form.elements.tile_set.value = data.tile_set;
    form.elements.double_blank_penalty.value = data.double_blank_penalty;
    form.elements.end_on_double_penalty.value = data.end_on_double_penalty;
    form.elements.extended.checked = data.extended;
    form.elements.target_score.value = data.target_score || "";
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
    }
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    const form = document.getElementById("new-game");
    if (!form) return;
    seatInOrder(form);
    // Keep the keyboard up for the next name.
    if (event.detail.target && event.detail.target.id === "add-player") {
      const input = document.getElementById("new-player-name");
      if (input) input.focus();
    }
  });



  document.addEventListener("submit", (event) => {
    const message = event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  }, true);

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById("new-game");
    if (form) seatInOrder(form);
  });
})();

// Round entry at the table: Enter moves to the next pips box still empty and saves only a
// complete round; going out (or out on a double) fills 0 and moves on.
(function () {
  "use strict";
  function rowOf(element) { return element.closest(".player-row"); }
  function needsPips(box) {
    const row = rowOf(box);
    const out = row.querySelector("input.went_out");
    const listed = row.querySelector("input.tile-list");
    return box.value === "" && !(out && out.checked) && !(listed && listed.value.trim());
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

  document.addEventListener("change", (event) => {
    const box = event.target;
    if (!box.form || box.form.id !== "round-form" || box.type !== "checkbox") return;
    const row = rowOf(box);
    if (box.matches("input.ended_on_double") && box.checked) row.querySelector("input.went_out").checked = true;
    const pips = row.querySelector("input.pips");
    if (box.matches("input.went_out, input.ended_on_double") && box.checked) {
      if (pips.value === "") pips.value = "0";
      const next = nextToFill(box.form, pips);
      (next || document.getElementById("save-round")).focus();  // nothing left to fill: Save is next
    } else if (box.matches("input.double_blank") && box.checked) {
      // Caught with the 0-0: the pips come next, this player's if still empty.
      const next = needsPips(pips) ? pips : nextToFill(box.form, pips);
      if (next) next.focus();
    }
  });
})();

// Tap the tiles: for each player, the set's tiles as domino faces. Tiles on the table (the
// round's double) or in another player's list are disabled; tapping writes the player's tile list
// (the same text box that works without scripts) and fills pips, tiles left and the 0-0 chip.
(function () {
  "use strict";
  const DASHES = /[\u002D\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;

  function key(a, b) { return a >= b ? `${a}-${b}` : `${b}-${a}`; }
  function listed(text) {
    const tiles = [];
    text.replace(/\s*([\u002D\u2010-\u2015\u2212\uFE58\uFE63\uFF0D])\s*/g, "-").split(/[\s,;]+/).forEach((item) => {
      const parts = item.replace(DASHES, "-").split("-");
      if (parts.length === 2 && /^\d+$/.test(parts[0]) && /^\d+$/.test(parts[1])) tiles.push(key(Number(parts[0]), Number(parts[1])));
    });
    return tiles;
  }
  function pipsOf(tile) { return tile.split("-").reduce((sum, n) => sum + Number(n), 0); }
  function rowsOf(form) { return Array.from(form.querySelectorAll(".player-row")); }
  function listBox(row) { return row.querySelector("input.tile-list"); }

  function taken(form, row) {
    const out = new Set();
    const double = form.elements.starting_double && form.elements.starting_double.value;
    if (double !== undefined && double !== "") out.add(key(Number(double), Number(double)));
    rowsOf(form).filter((other) => other !== row).forEach((other) => listed(listBox(other).value).forEach((t) => out.add(t)));
    return out;
  }

  function build(form, row) {
    const panel = row.querySelector(".picker");
    const top = Number(form.dataset.tileSet);
    const grid = document.createElement("div");
    grid.className = "tiles-grid";
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", window.scorekeeperText.t("{name}'s tiles", { name: row.dataset.player }));
    for (let a = top; a >= 0; a--) {
      for (let b = a; b >= 0; b--) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "tile";
        button.dataset.tile = key(a, b);
        button.setAttribute("aria-label", key(a, b));
        button.setAttribute("aria-pressed", "false");
        [a, b].forEach((n) => {
          const half = document.createElement("span");
          half.dataset.n = String(n);
          half.textContent = String(n);
          button.appendChild(half);
        });
        grid.appendChild(button);
      }
    }
    const sum = document.createElement("p");
    sum.className = "picker-sum";
    sum.setAttribute("aria-live", "polite");
    const done = document.createElement("button");
    done.type = "button";
    done.className = "big picker-done";
    done.dataset.pickerDone = "";
    done.textContent = window.scorekeeperText.t("Done");
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
      const pips = Array.from(mine).reduce((total, tile) => total + pipsOf(tile), 0);
      const count = mine.size;
      const { t, tn } = window.scorekeeperText;
      const parts = [tn("{count} tile", "{count} tiles", count), t("{pips} pips", { pips: pips })];
      if (mine.has("0-0")) parts.push(t("holds the 0-0"));
      panel.querySelector(".picker-sum").textContent = `${row.dataset.player}: ${parts.join(", ")}`;
    });
  }

  function write(form, row, tiles) {
    const sorted = tiles.slice().sort((x, y) => {
      const [xa, xb] = x.split("-").map(Number), [ya, yb] = y.split("-").map(Number);
      return yb + ya * 100 - (xb + xa * 100);
    });
    listBox(row).value = sorted.join(" ");
    const pips = row.querySelector("input.pips");
    const left = row.querySelector("input.tiles");
    pips.value = sorted.length ? String(sorted.reduce((total, tile) => total + pipsOf(tile), 0)) : "";
    left.value = sorted.length ? String(sorted.length) : "";
    row.querySelector("input.double_blank").checked = sorted.includes("0-0");
    if (sorted.length) {
      row.querySelector("input.went_out").checked = false;
      row.querySelector("input.ended_on_double").checked = false;
    }
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
      write(form, row, mine.includes(tile) ? mine.filter((t) => t !== tile) : mine.concat([tile]));
    } else if (target.matches("[data-picker-done]")) {
      row.querySelector(".picker").hidden = true;
      row.querySelector("[data-pick-tiles]").setAttribute("aria-expanded", "false");
      row.querySelector("details.extras").open = false;
      const empty = Array.from(form.querySelectorAll("input.pips")).find((box) => box.value === "" && !box.closest(".player-row").querySelector("input.went_out").checked);
      (empty || document.getElementById("save-round")).focus();
    }
  });

  document.addEventListener("input", (event) => {
    const box = event.target;
    if (box.form && box.form.id === "round-form" && box.matches("input.tile-list")) refresh(box.form);
  });
  document.addEventListener("change", (event) => {
    const box = event.target;
    if (box.form && box.form.id === "round-form" && box.name === "starting_double") refresh(box.form);
  });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("#round-form [data-pick-tiles]").forEach((button) => { button.hidden = false; });
  });
})();

// Keep the screen on during a game, where the browser offers the Wake Lock API (a toggle; the
// choice is remembered on this device and taken up again when the page comes back into view).
(function () {
  "use strict";
  if (!("wakeLock" in navigator)) return;
  let lock = null;
  const wanted = () => localStorage.getItem("keep-screen-on") === "1";

  async function hold(button) {
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; show(button); });
    } catch (error) {
      lock = null;
      button.textContent = window.scorekeeperText.t("Screen lock unavailable");
      button.dataset.unavailable = "1";
    }
    show(button);
  }
  function show(button) {
    if (!button.isConnected) return;
    button.setAttribute("aria-pressed", lock ? "true" : "false");
    if (lock || !button.dataset.unavailable) {
      button.textContent = window.scorekeeperText.t(lock ? "Screen stays on" : "Keep the screen on");
    }
  }
  function setUp() {
    const button = document.getElementById("wake-lock");
    if (!button) return;
    button.hidden = false;
    show(button);
    if (wanted() && !lock) hold(button);
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest && event.target.closest("#wake-lock");
    if (!button) return;
    if (lock) {
      localStorage.setItem("keep-screen-on", "0");
      await lock.release();
      lock = null;
      show(button);
    } else {
      localStorage.setItem("keep-screen-on", "1");
      await hold(button);
    }
  });
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") setUp(); });
  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
})();

// Tests (and anything else) can tell that the enhancements above are in place.
document.documentElement.dataset.js = "ready";

// The live page follows the game by itself: every 2 s it asks for the sheet with the ETag it has;
// a 304 costs the server next to nothing. It says "live" or "reconnecting", backs off while the
// network is gone, and asks again at once when the phone wakes or the network comes back.
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const body = document.getElementById("live-body");
  const status = document.getElementById("live-status");
  const every = 2000;
  let etag = root.dataset.etag;
  let failures = 0;
  let timer = null;
  let stopped = false;

  function show(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }
  function later(delay) {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(poll, delay);
  }
  async function poll() {
    if (stopped) return;
    if (document.visibilityState === "hidden") return;  // asked again on visibilitychange
    let delay = every;
    try {
      const response = await fetch(root.dataset.poll, { cache: "no-store", credentials: "omit", headers: { "If-None-Match": etag } });
      if (response.status === 200) {
        body.innerHTML = await response.text();
        etag = response.headers.get("ETag") || etag;
      } else if (response.status === 404) {
        stopped = true;
        body.classList.add("stale");
        show("gone", window.scorekeeperText.t("This live link was stopped"));
        return;
      } else if (response.status === 429) {
        delay = 1000 * (Number(response.headers.get("Retry-After")) || 10);
      } else if (response.status !== 304) {
        throw new Error(String(response.status));
      }
      failures = 0;
      show("live", window.scorekeeperText.t("live"));
    } catch (error) {
      failures += 1;
      show("reconnecting", window.scorekeeperText.t("reconnecting…"));
      delay = Math.min(every * 2 ** failures, 15000);
    }
    later(delay);
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") poll(); });
  window.addEventListener("online", () => poll());
  window.addEventListener("offline", () => show("reconnecting", window.scorekeeperText.t("reconnecting…")));
  later(every);

  // TV mode: large type for a screen across the table; remembered on this device.
  const tv = document.getElementById("tv-mode");
  function setTv(on) {
    document.body.classList.toggle("tv", on);
    tv.setAttribute("aria-pressed", on ? "true" : "false");
    localStorage.setItem("live-tv", on ? "1" : "0");
  }
  tv.addEventListener("click", () => setTv(!document.body.classList.contains("tv")));
  setTv(localStorage.getItem("live-tv") === "1" || new URLSearchParams(location.search).has("tv"));
})();

// Share the live link with the phone's own share sheet, where the browser offers one.
(function () {
  "use strict";
  function setUp() {
    const button = document.getElementById("share-live");
    if (button && navigator.share) button.hidden = false;
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("#share-live");
    if (button) navigator.share({ title: button.dataset.title, url: button.dataset.url }).catch(() => {});
  });
  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
})();

// A Print button where a page offers one (the blank sheet, the score sheet).
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});
