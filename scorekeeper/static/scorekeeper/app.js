// Small enhancements; every page works without them. Delegated listeners survive htmx swaps.

// The scripts' words in the page's language, from Django's JavaScript catalogue: base.html loads
// the static file of the page's language (jsi18n/<lang>/djangojs.js, made from
// locale/<lang>/LC_MESSAGES/djangojs.po by `make messages`), which defines django.gettext and
// django.ngettext. t("English {name}", {name: ...}) and tn(singular, plural, count) look a string
// up by its English text and fill its {name} fields ({count} too for tn). `makemessages -d djangojs`
// finds every t("...") and tn("...", "...") whose first arguments are string literals: write
// `cond ? t("a") : t("b")`, never t(cond ? "a" : "b") (docs/translating.md).
window.scorekeeperText = (function () {
  "use strict";
  function catalogue() {
    const django = window.django;
    return django && typeof django.gettext === "function" ? django : null;  // English without one
  }
  function fill(text, params) {
    return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
  }
  function t(english, params) {
    const django = catalogue();
    return fill(django ? django.gettext(english) : english, params);
  }
  function tn(singular, plural, count, params) {
    const django = catalogue();
    const text = django ? django.ngettext(singular, plural, count) : (count === 1 ? singular : plural);
    return fill(text, Object.assign({ count: count }, params));
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
  function key(a, b) { return a >= b ? `${a}-${b}` : `${b}-${a}`; }

  // A typed list is read as the server reads it: the round form carries the rules module's
  // grammar (rules/tiles.py grammar(), the "tile-grammar" data block), and nothing here adds to it.
  let grammarBlock = null, reader = null;
  function tileReader() {
    const block = document.getElementById("tile-grammar");
    if (!block) return null;
    if (block !== grammarBlock) { grammarBlock = block; reader = readerFor(JSON.parse(block.textContent)); }
    return reader;
  }
  function readerFor(grammar) {
    const point = (code) => `\\u{${code.toString(16)}}`;
    const anyOf = (chars) => `[${Array.from(chars, (c) => point(c.codePointAt(0))).join("")}]`;
    const digit = `[${grammar.digit_zeros.map((zero) => `${point(zero)}-${point(zero + 9)}`).join("")}]`;
    const space = anyOf(grammar.spaces), dash = anyOf(grammar.dashes), end = `(${digit}{1,${grammar.digits_per_end}})`;
    const aroundDash = new RegExp(`${space}*(${dash})${space}*`, "gu");
    const parting = new RegExp(`${anyOf(grammar.separators)}+`, "u");
    const tile = new RegExp(`^${space}*${end}${space}*${dash}${space}*${end}${space}*$`, "u");
    const value = (digits) => Array.from(digits).reduce((number, c) => {
      const code = c.codePointAt(0);
      return number * 10 + code - grammar.digit_zeros.find((zero) => zero <= code && code <= zero + 9);
    }, 0);
    // The tiles of a list (as "high-low") and the parts that are not a tile of the set.
    return (text) => {
      const tiles = [], refused = [];
      text.normalize(grammar.normalize).replace(aroundDash, "$1").split(parting).filter(Boolean).forEach((part) => {
        const match = tile.exec(part);
        const ends = match ? [value(match[1]), value(match[2])] : [];
        if (match && ends.every((n) => n <= grammar.highest)) tiles.push(key(ends[0], ends[1])); else refused.push(part);
      });
      return { tiles, refused };
    };
  }
  function listed(text) {
    const read = tileReader();
    return read ? read(text).tiles : [];
  }
  window.scorekeeperTiles = { read: (text) => (tileReader() ? tileReader()(text) : null) };  // for the browser tests
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
      button.textContent = lock ? window.scorekeeperText.t("Screen stays on") : window.scorekeeperText.t("Keep the screen on");
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
  document.addEventListener("scorekeeper:redrawn", setUp);  // the sheet drew a new button
})();

// Tests (and anything else) can tell that the enhancements above are in place.
document.documentElement.dataset.js = "ready";

// Pages that follow a game by themselves ask for what they show every 2 s with the ETag they have
// (a 304 costs the server next to nothing), while the page is in view. They say "live" or
// "reconnecting", back off while the network is gone, and ask again at once when the phone wakes
// or the network comes back. One loop for the live link's page and for the pages of members
// (both below); each says what a new answer changes on it.
//   follow({url, etag, credentials, first, changed(html), state(name)}) -> {now(), stop()}
// `credentials`: "omit" for the live link (no account), "same-origin" for a member's session.
// `changed(html)` may return a promise: the answer counts as drawn once it is done.
// `state(name)`: "live", "reconnecting", or "gone" (a 403 or 404, or the session ended: a redirect).
// `now()` asks at once (after the question on its way, if one is) and resolves once the answer is drawn.
window.scorekeeperFollow = (function () {
  "use strict";
  const EVERY = 2000, LONGEST = 15000;
  return function follow(options) {
    const stopped = new AbortController();
    let etag = options.etag, failures = 0, timer = null, asking = null, again = false;
    function later(delay) {
      clearTimeout(timer);
      if (!stopped.signal.aborted) timer = setTimeout(poll, delay);
    }
    function stop() {
      stopped.abort();
      clearTimeout(timer);
    }
    // One question and its answer drawn; the delay before the next (null: no next).
    async function ask() {
      let delay = EVERY;
      try {
        // The page's language asked for by name: the live link sends no cookies.
        const headers = { "Accept-Language": document.documentElement.lang };
        if (etag) headers["If-None-Match"] = etag;
        const response = await fetch(options.url, {
          cache: "no-store", credentials: options.credentials, redirect: "manual", headers, signal: stopped.signal,
        });
        if (response.type === "opaqueredirect" || response.status === 403 || response.status === 404) {
          stop();
          options.state("gone");
          return null;
        }
        if (response.status === 200) {
          const html = await response.text();
          etag = response.headers.get("ETag") || etag;
          await options.changed(html);
        } else if (response.status === 429) {
          delay = 1000 * (Number(response.headers.get("Retry-After")) || 10);
        } else if (response.status !== 304) {
          throw new Error(String(response.status));
        }
        failures = 0;
        options.state("live");
      } catch (error) {
        if (stopped.signal.aborted) return null;
        failures += 1;
        options.state("reconnecting");
        delay = Math.min(EVERY * 2 ** failures, LONGEST);
      }
      return delay;
    }
    function poll() {
      if (stopped.signal.aborted || document.visibilityState === "hidden") return Promise.resolve();  // asked again on visibilitychange
      if (asking) { again = true; return asking; }  // one question at a time; the next goes as soon as it is answered
      asking = ask().then((delay) => {
        asking = null;
        if (delay !== null) later(again ? 0 : delay);
        again = false;
      });
      return asking;
    }
    function now() {
      return asking ? asking.then(poll) : poll();
    }
    const listening = { signal: stopped.signal };
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") poll(); }, listening);
    window.addEventListener("online", () => poll(), listening);
    window.addEventListener("offline", () => options.state("reconnecting"), listening);
    later(options.first === undefined ? EVERY : options.first);
    return { now, stop };
  };
})();

// The live page (no account) swaps in the sheet it is sent.
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const { t } = window.scorekeeperText;
  const body = document.getElementById("live-body");
  const status = document.getElementById("live-status");
  window.scorekeeperFollow({
    url: root.dataset.poll,
    etag: root.dataset.etag,
    credentials: "omit",
    changed: (html) => { body.innerHTML = html; },
    state: (name) => {
      if (status.dataset.state === name) return;  // said once, not read out again every 2 s
      status.dataset.state = name;
      if (name === "live") status.textContent = t("live");
      else if (name === "gone") status.textContent = t("This live link was stopped");
      else status.textContent = t("reconnecting…");
      body.classList.toggle("stale", name === "gone");
    },
  });

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

// A signed-in member's sheet, round form and home page follow the game the same way, with the
// session (scorekeeper/follow.py). An answer holds the page's parts, each put in place of the
// element with its id, and the game as `follow-state` (what the round form offers, the latest
// changes in words). The sheet redraws; a change made on another phone shows a short notice (never
// one's own); the round form takes the doubles still open without touching what is typed, and says
// before Save what a change means for its double (below); the home page redraws its games. A copy
// the service worker kept, opened offline, never says "live", and catches up as soon as the network is back.
(function () {
  "use strict";
  const { t, tn } = window.scorekeeperText;
  let following = null;  // {root, follower, state, seen}

  function stateIn(node) {
    const block = node.querySelector("#follow-state");
    try { return block ? JSON.parse(block.textContent) : {}; } catch (error) { return {}; }
  }

  function setUp() {
    const root = document.getElementById("follow");
    if (following && following.root === root) return;
    if (following) following.follower.stop();
    following = null;
    if (!root) return;
    const kept = Boolean(document.getElementById("offline-saved"));  // a copy kept by the service worker
    const state = stateIn(document);
    const page = { root, state, seen: new Set(state.seen || []) };
    page.follower = window.scorekeeperFollow({
      url: root.dataset.url,
      etag: root.dataset.etag,
      credentials: "same-origin",
      first: kept ? 0 : undefined,  // catch up at once
      changed: (html) => redraw(page, html),
      state: (name) => { status(name); if (name === "live") caughtUp(); },
    });
    following = page;
    if (root.dataset.kind === "round-form") startRoundForm(state);
    if (kept || !navigator.onLine) status("offline");
  }

  function status(name) {
    const badge = document.getElementById("follow-status");
    if (!badge) return;
    if (name === "reconnecting" && !navigator.onLine) name = "offline";
    if (badge.dataset.state === name) return;  // said once, not read out again every 2 s
    badge.dataset.state = name;
    if (name === "live") badge.textContent = t("live");
    else if (name === "offline") badge.textContent = t("offline");
    else if (name === "gone") badge.textContent = t("Not updating: reload the page");
    else badge.textContent = t("reconnecting…");
  }

  // A kept copy the server has just answered for shows the game as it is now: it is no longer one.
  function caughtUp() {
    const marker = document.getElementById("offline-saved");
    if (!marker) return;
    marker.remove();
    document.dispatchEvent(new CustomEvent("scorekeeper:redrawn"));
  }

  // The new parts in place; the changes this page has not shown yet told; the round form adjusted
  // (a promise: the answer counts as drawn once the form says what it means for it).
  function redraw(page, html) {
    const answer = document.createElement("template");
    answer.innerHTML = html;
    const state = stateIn(answer.content);
    const before = page.state;
    const fresh = (state.changes || []).filter((change) => !page.seen.has(change.key));
    Array.from(answer.content.children).forEach((part) => {
      const old = part.id && part.id !== "follow-state" && document.getElementById(part.id);
      if (old) old.replaceWith(part);
    });
    const adjusted = page.root.dataset.kind === "round-form" ? adjustRoundForm(state, before, fresh) : null;
    fresh.slice().reverse().filter((change) => !change.mine).forEach((change) => notify(change.text));
    (state.seen || []).forEach((key) => page.seen.add(key));
    page.state = state;
    document.dispatchEvent(new CustomEvent("scorekeeper:redrawn"));
    return adjusted;
  }

  // ---- notices: one line, clear of the title, the status and Save ---------------------------------
  // The newest change, with "+2 more" when others came before it: a tap on the line shows them all
  // (and the newest in full). Read out politely; gone after 12 s, or at once with ×. At the bottom
  // of the screen; on a round form, in the space kept above Save while it is free (placeBar).
  const KEPT = 5, SHOWN_FOR = 12000;
  let hiding = null;
  function noticeBar() {
    let box = document.getElementById("notices");
    if (box) return box;
    box = document.createElement("div");
    box.id = "notices";
    box.className = "notices";
    const earlier = document.createElement("ul");
    earlier.className = "notice-earlier";
    earlier.hidden = true;
    const line = document.createElement("div");
    line.className = "notice";
    const open = document.createElement("button");
    open.type = "button";
    open.className = "notice-open";
    open.setAttribute("aria-expanded", "false");
    const words = document.createElement("span");
    words.className = "notice-text";
    words.setAttribute("aria-live", "polite");
    const more = document.createElement("span");
    more.className = "notice-more";
    open.append(words, more);
    const close = document.createElement("button");
    close.type = "button";
    close.className = "notice-close";
    close.setAttribute("aria-label", t("Dismiss"));
    close.textContent = "×";
    line.append(open, close);
    box.append(earlier, line);
    open.addEventListener("click", () => {
      const opening = earlier.hidden && (earlier.children.length > 0 || words.scrollWidth > words.clientWidth);
      earlier.hidden = !opening || earlier.children.length === 0;
      box.classList.toggle("open", opening);
      open.setAttribute("aria-expanded", opening ? "true" : "false");
      hideLater(opening ? null : SHOWN_FOR);
      placeBar();
    });
    close.addEventListener("click", () => { hideLater(null); box.remove(); });
    document.body.append(box);
    return box;
  }
  function hideLater(delay) {
    clearTimeout(hiding);
    if (delay !== null) hiding = setTimeout(() => { const box = document.getElementById("notices"); if (box) box.remove(); }, delay);
  }
  function notify(text) {
    const box = noticeBar();
    const words = box.querySelector(".notice-text");
    const earlier = box.querySelector(".notice-earlier");
    if (words.textContent) {
      const item = document.createElement("li");
      item.textContent = words.textContent;
      earlier.append(item);  // oldest first: the one just before the newest sits next to it
      while (earlier.children.length > KEPT - 1) earlier.firstElementChild.remove();
    }
    words.textContent = text;
    const count = earlier.children.length;
    box.querySelector(".notice-more").textContent = count ? tn("+{count} more", "+{count} more", count) : "";
    if (!box.classList.contains("open")) hideLater(SHOWN_FOR);
    placeBar();
  }
  // Never over Save: a round form's notice takes the space kept above Save while the form has
  // nothing to say there; otherwise the line floats at the bottom, or at the top while Save is there.
  function placeBar() {
    const box = document.getElementById("notices");
    if (!box) return;
    const slot = document.getElementById("double-note");
    const inSlot = Boolean(slot && !slot.dataset.kind);
    if (inSlot && box.parentElement !== slot) slot.append(box);
    if (!inSlot && box.parentElement !== document.body) document.body.append(box);
    box.classList.toggle("in-slot", inSlot);
    box.classList.remove("at-top");
    const save = document.getElementById("save-round");
    if (inSlot || !save) return;
    const bar = box.getBoundingClientRect(), button = save.getBoundingClientRect();
    if (button.bottom > bar.top && button.top < bar.bottom) box.classList.add("at-top");
  }
  window.addEventListener("scroll", placeBar, { passive: true });
  window.addEventListener("resize", placeBar);

  // ---- the round form ---------------------------------------------------------------------------
  // Its doubles are the ones still open, the expected next one first; choosing a later one skips
  // the ones before it. After a change by anyone:
  // - its double was taken (a round saved with it): it stays chosen, marked taken, the next open one
  //   offered; the form keeps the version it was drawn for, so Save shows both rounds side by side;
  // - doubles it skips were opened again (an undo): a form whose double the person never chose moves
  //   to the new expected double and says why; one whose double the person chose keeps it and says
  //   that saving it skips them, offering the expected one.
  // It says so in the space kept for it just above Save (#double-note): nothing moves under the thumb.
  // Save asks the server once more first, so a change of the last seconds is shown, not saved over.
  let telling = false;  // a change event this script sends (the tile picker follows), not a choice
  const expectedOf = (state) => (state.doubles && state.doubles.length ? String(state.doubles[0][0]) : "");
  const isOpen = (state, value) => (state.doubles || []).some(([double]) => String(double) === value);
  function labelOf(state, value) {
    const found = (state.doubles || []).find(([double]) => String(double) === value);
    return found ? found[1] : `${value}-${value}`;
  }
  function skipsOf(state, value) {  // the doubles listed before `value`: choosing it leaves them out
    const doubles = (state.doubles || []).map(([double]) => String(double));
    const at = doubles.indexOf(value);
    return at < 0 ? [] : doubles.slice(0, at);
  }

  function startRoundForm(state) {
    const form = document.getElementById("round-form");
    if (!form || !state.doubles) return;
    const value = form.elements.starting_double.value;
    form.dataset.skipsSeen = skipsOf(state, value).join(",");
    form.dataset.picked = value !== expectedOf(state) ? "1" : "";  // a form sent back keeps what was chosen
  }

  async function adjustRoundForm(state, before, fresh) {
    const form = document.getElementById("round-form");
    if (!form || !state.doubles) return;
    // Rounds waiting on this phone hold doubles the server does not know yet: offline.js sees to them.
    const queued = window.scorekeeperOutbox ? await window.scorekeeperOutbox.all().catch(() => []) : [];
    if (queued.some((item) => item.game === form.dataset.game && item.state === "waiting")) return;
    const select = form.elements.starting_double;
    const chosen = select.value;
    const picked = select.selectedOptions[0];
    const label = picked ? picked.dataset.label || picked.textContent : chosen;
    const open = isOpen(state, chosen);
    const options = state.doubles.map(([value, text]) => new Option(text, String(value)));
    if (!open && chosen !== "") {
      const taken = new Option(t("{double} (taken)", { double: label }), chosen);
      taken.dataset.label = label;
      options.unshift(taken);
    }
    select.replaceChildren(...options);
    select.value = chosen;
    form.dataset.nextNumber = String(state.next_number);
    const title = document.getElementById("round-title");
    if (title) title.textContent = t("Round {number}", { number: state.next_number });
    if (chosen === "") return;
    if (!open) {
      say(form, "taken", takenWords(state, Number(chosen), label), state.finished ? null : expectedOf(state));
      return;
    }
    form.elements.version.value = String(state.version);  // the form shows the game as it is now
    const seen = new Set((form.dataset.skipsSeen || "").split(",").filter(Boolean));
    const reopened = skipsOf(state, chosen).filter((double) => !seen.has(double));
    const note = document.getElementById("double-note");
    if (reopened.length && !form.dataset.picked) {
      const expected = expectedOf(state);
      select.value = expected;
      form.dataset.skipsSeen = "";
      const undo = fresh.find((change) => change.action === "round_undone");
      const double = labelOf(state, expected);
      say(form, "moved", undo && undo.by
        ? t("{name} undid round {number}: this round is now {double}.", { name: undo.by, number: undo.round, double })
        : t("A round was undone: this round is now {double}.", { double }));
      tell(select);
    } else if (reopened.length) {
      const doubles = reopened.map((double) => labelOf(state, double)).join(", ");
      say(form, "skips", tn("{doubles} is open again: saving {double} skips it.", "{doubles} are open again: saving {double} skips them.",
        reopened.length, { doubles, double: labelOf(state, chosen) }), expectedOf(state));
    } else if (note && note.dataset.kind !== "moved") {
      say(form, null);
    }
  }

  function takenWords(state, chosen, label) {
    // The round saved last with this double, if that is why it is no longer open (rather than skipped).
    const saved = (state.changes || []).find((change) => change.action === "round_recorded" || change.action === "round_restored");
    if (state.finished) return t("This game is over: this round cannot be saved.");
    if (saved && saved.double === chosen && saved.by) return t("{name} saved round {number} with {double} a moment ago.", { name: saved.by, number: saved.round, double: label });
    if (saved && saved.double === chosen) return t("Another phone saved round {number} with {double} a moment ago.", { number: saved.round, double: label });
    return t("{double} can no longer start this round.", { double: label });
  }

  // The note above Save: `kind` "taken", "skips" (both ask for a look before Save), "moved", or null
  // (nothing to say); `offer` a double to take with one tap.
  function say(form, kind, words, offer) {
    const note = document.getElementById("double-note");
    const select = form.elements.starting_double;
    if (!note) return;
    const said = [kind || "", words || "", offer || ""].join("|");
    if (note.dataset.said === said) return;  // said already: not read out again
    note.dataset.said = said;
    note.dataset.kind = kind || "";
    const bar = document.getElementById("notices");
    if (bar) document.body.append(bar);  // placed again below, once the note is said
    note.replaceChildren();
    placeBar();
    if (kind === "taken") select.setAttribute("aria-invalid", "true"); else select.removeAttribute("aria-invalid");
    if (!kind) {
      select.removeAttribute("aria-describedby");
      return;
    }
    const text = document.createElement("p");
    words.split(/(\d+-\d+)/).forEach((part, index) => {  // a double ("6-6") is never cut at the end of a line
      if (index % 2 === 0) { text.append(part); return; }
      const double = document.createElement("span");
      double.className = "double";
      double.textContent = part;
      text.append(double);
    });
    note.append(text);
    if (offer) {
      const use = document.createElement("button");
      use.type = "button";
      use.className = "secondary";
      use.dataset.useDouble = offer;
      use.textContent = t("Use {double}", { double: labelOf(following.state, offer) });
      note.append(use);
    }
    select.setAttribute("aria-describedby", "double-note");
    form.dataset.told = String(Number(form.dataset.told || 0) + 1);  // Save knows something new was said
  }

  function tell(select) {
    telling = true;
    try { select.dispatchEvent(new Event("change", { bubbles: true })); } finally { telling = false; }
  }

  // An open double chosen (in the list, or offered): the form takes the game as it is now, and the
  // person has seen the doubles it skips.
  function chooseOpen(form, state) {
    const select = form.elements.starting_double;
    Array.from(select.options).forEach((option) => { if (!isOpen(state, option.value)) option.remove(); });
    form.elements.version.value = String(state.version);
    form.dataset.skipsSeen = skipsOf(state, select.value).join(",");
    say(form, null);
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-use-double]");
    const form = document.getElementById("round-form");
    if (!button || !form || !following) return;
    form.elements.starting_double.value = button.dataset.useDouble;
    form.dataset.picked = "";  // the expected double, followed from now on
    chooseOpen(form, following.state);
    tell(form.elements.starting_double);
    form.elements.starting_double.focus();
  });
  document.addEventListener("change", (event) => {
    const select = event.target;
    if (telling || select.name !== "starting_double" || !select.form || select.form.id !== "round-form") return;
    if (!following || !following.state.doubles) return;
    select.form.dataset.picked = "1";
    if (isOpen(following.state, select.value)) chooseOpen(select.form, following.state);
  });

  // Save asks first whether the game changed (a 304 costs the server two queries): a change not yet
  // drawn is drawn, and when it means something for this round's double, the note says so and
  // nothing is sent; Save again sends it. No answer within 3 s: it goes as it is.
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    const page = following;
    if (!(form instanceof HTMLFormElement) || form.id !== "round-form" || form.dataset.checked || form.dataset.classic) return;
    if (!page || page.root.dataset.kind !== "round-form" || !navigator.onLine || !document.getElementById("double-note")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (form.dataset.checking) return;  // tapped again while asking
    form.dataset.checking = "1";
    const told = form.dataset.told;
    try {
      await Promise.race([page.follower.now(), new Promise((resolve) => { setTimeout(resolve, 3000); })]);
    } finally {
      delete form.dataset.checking;
    }
    if (form.dataset.told !== told || following !== page) return;
    form.dataset.checked = "1";
    try { form.requestSubmit(event.submitter && event.submitter.form === form ? event.submitter : undefined); } finally { delete form.dataset.checked; }
  }, true);

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
})();

// Sharing (partials/share_link.html): a link is copied with [data-copy] (the id of the field that
// holds it) and handed to the phone's own share sheet with [data-share-url], where the browser has
// one (Web Share); each button shows only where it works.
(function () {
  "use strict";
  const { t } = window.scorekeeperText;
  function setUp() {
    document.querySelectorAll("[data-copy]").forEach((button) => { button.hidden = false; });
    document.querySelectorAll("[data-share-url]").forEach((button) => { button.hidden = !navigator.share; });
  }
  async function copy(field) {
    try {
      await navigator.clipboard.writeText(field.value);
      return true;
    } catch (error) {  // no clipboard API here (or refused): the old way, through a selection
      field.focus();
      field.select();
      return document.execCommand && document.execCommand("copy");
    }
  }
  document.addEventListener("click", async (event) => {
    const copyButton = event.target.closest && event.target.closest("[data-copy]");
    if (copyButton) {
      const field = document.getElementById(copyButton.dataset.copy);
      const done = document.getElementById(`${copyButton.dataset.copy}-copied`);
      const copied = field && await copy(field);
      if (done) done.textContent = copied ? t("Copied: paste it in a chat.") : t("Select the link and copy it.");
      return;
    }
    const shareButton = event.target.closest && event.target.closest("[data-share-url]");
    if (shareButton && navigator.share) {
      const data = { title: shareButton.dataset.shareTitle, url: shareButton.dataset.shareUrl };
      if (shareButton.dataset.shareText) data.text = shareButton.dataset.shareText;
      navigator.share(data).catch(() => {});  // closed without sharing: nothing to say
    }
  });
  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
})();

// A Print button where a page offers one (the blank sheet, the score sheet).
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});

// Round entry, second look (issue 22): a box that takes the focus holding a number has it selected,
// so what is typed replaces it (440 → 44 never becomes 4440), by tap or by keyboard; after a
// refused save, the element with the focus is scrolled fully into view (the first field to fix takes
// it, then htmx shows the page from its top); after a questioned one, the question takes it.
(function () {
  "use strict";
  const BOXES = "#round-form input.pips, #round-form input.tiles";
  function selectAll(box) { if (document.activeElement === box) box.select(); }
  document.addEventListener("focusin", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.matches(BOXES) || box.value === "") return;
    selectAll(box);
    const typed = box.value;  // once something is typed, selecting again would swallow it
    setTimeout(() => { if (box.value === typed) selectAll(box); }, 0);  // after the tap has put the caret where it landed
  });
  function inView(element) {
    const box = element.getBoundingClientRect();
    const height = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    return box.top >= 0 && box.bottom <= height;
  }
  function showFocus() {
    const form = document.getElementById("round-form");
    if (!form || !form.querySelector("#error-summary, #surprises, #clash")) return;
    setTimeout(() => {  // after htmx's own scroll to the top of a boosted answer
      // A question (a likely typo, skipped doubles, a clash) is read before anything else: it takes
      // the focus at the top of the screen, so "Save anyway" is never one tap away unread.
      const question = form.querySelector("#surprises, #clash");
      if (question) {
        question.setAttribute("tabindex", "-1");
        question.focus({ preventScroll: true });
        question.scrollIntoView({ block: "start" });
        return;
      }
      const focused = document.activeElement;
      if (focused && form.contains(focused) && !inView(focused)) focused.scrollIntoView({ block: "center" });
    }, 0);
  }
  document.addEventListener("htmx:afterSettle", showFocus);
  window.addEventListener("load", showFocus);
})();

// A picture of a finished game for a chat (partials/game_over.html): the card's game, day, winners,
// places and totals drawn on a canvas as a PNG, handed to the phone's share sheet as a file where it
// can share files, else downloaded. Drawn from the card on the page (a member's sheet or the live
// view), so it holds nothing the page does not show. The button shows once this script runs
// (site.css: html[data-js=ready]), on whatever page or redrawn part holds a card.
(function () {
  "use strict";
  const WIDTH = 1080, PAD = 64, ROW = 100, TOP = 300;
  const INK = "#0f172a", MUTED = "#475569", GOLD = "#854d0e", EDGE = "#ca8a04", PAPER = "#fefce8", WON = "#fef3c7";
  const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Color Emoji", sans-serif';
  function text(node) { return node ? node.textContent.replace(/\s+/g, " ").trim() : ""; }
  function read(card) {
    return {
      title: card.dataset.cardTitle, date: card.dataset.cardDate, brand: card.dataset.cardBrand,
      heading: text(card.querySelector("h2")), winners: text(card.querySelector(".winners")),
      ended: text(card.querySelector(".ended .ending")), tie: text(card.querySelector(".ended .tie-broken")),
      rows: Array.from(card.querySelectorAll(".final li")).map((li) => ({
        place: text(li.querySelector(".place")), name: text(li.querySelector(".name")),
        total: text(li.querySelector(".total")), won: li.classList.contains("won"),
      })),
    };
  }
  // `words` cut with an ellipsis to fit `width` in the context's font (whole characters, emoji too).
  function fit(context, words, width) {
    if (context.measureText(words).width <= width) return words;
    const chars = Array.from(words);
    while (chars.length > 1 && context.measureText(chars.join("") + "…").width > width) chars.pop();
    return chars.join("") + "…";
  }
  // One line of text: `size` px at most, smaller (down to two thirds) before it is cut to fit `width`.
  function line(context, words, x, y, weight, size, colour, width, align) {
    let px = size;
    do {
      context.font = `${weight} ${px}px ${FONT}`;
      px -= 2;
    } while (px >= size * 2 / 3 && context.measureText(words).width > width);
    context.fillStyle = colour;
    context.textAlign = align || "left";
    context.fillText(fit(context, words, width), x, y);
  }
  function draw(data) {
    const height = TOP + ROW * data.rows.length + (data.tie ? 220 : 170), inner = WIDTH - 2 * PAD;
    const canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = height;
    const c = canvas.getContext("2d");
    c.fillStyle = PAPER;
    c.fillRect(0, 0, WIDTH, height);
    c.strokeStyle = EDGE;
    c.lineWidth = 10;
    c.strokeRect(5, 5, WIDTH - 10, height - 10);
    c.direction = "ltr";
    line(c, data.title, PAD, 112, 800, 62, INK, inner);
    line(c, `${data.heading} · ${data.date}`, PAD, 172, 400, 38, MUTED, inner);
    line(c, data.winners, PAD, 248, 700, 46, GOLD, inner);
    data.rows.forEach((row, index) => {
      const y = TOP + ROW * index, base = y + 66;
      if (row.won) {
        c.fillStyle = WON;
        c.fillRect(PAD - 24, y, inner + 48, ROW - 10);
      }
      line(c, row.place, PAD, base, 800, 50, row.won ? GOLD : MUTED, 110);
      line(c, row.total, WIDTH - PAD, base, 800, 56, INK, 260, "right");
      const totalWidth = c.measureText(row.total).width;
      line(c, row.name, PAD + 120, base, row.won ? 700 : 400, 50, INK, inner - 120 - totalWidth - 40);
    });
    const foot = TOP + ROW * data.rows.length + 60;
    line(c, data.ended, PAD, foot, 400, 32, MUTED, inner);
    if (data.tie) line(c, data.tie, PAD, foot + 50, 400, 32, MUTED, inner);  // who won a level total, and why
    line(c, data.brand, WIDTH - PAD, height - 44, 700, 34, "#14532d", inner, "right");
    return canvas;
  }
  // The PNG's bytes at once (toDataURL is synchronous), so the share sheet opens within the tap.
  function pngOf(canvas) {
    const bytes = atob(canvas.toDataURL("image/png").split(",")[1]);
    const array = new Uint8Array(bytes.length);
    for (let i = 0; i < bytes.length; i += 1) array[i] = bytes.charCodeAt(i);
    return new Blob([array], { type: "image/png" });
  }
  function download(blob, name) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.setAttribute("hx-boost", "false");
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  }
  document.addEventListener("click", async (event) => {
    const button = event.target.closest && event.target.closest("[data-card-picture]");
    if (!button) return;
    const card = button.closest("[data-card-title]");
    const data = read(card);
    const blob = pngOf(draw(data));
    const name = card.dataset.cardFile;
    const file = typeof File === "function" ? new File([blob], name, { type: "image/png" }) : null;
    if (file && navigator.canShare && navigator.canShare({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: data.title });
        return;
      } catch (error) {
        if (error && error.name === "AbortError") return;  // closed without sharing
      }
    }
    download(blob, name);
  });
})();
