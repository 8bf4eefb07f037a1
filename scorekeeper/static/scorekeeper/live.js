// The live page (no account) swaps in the sheet it is sent; TV mode sets it in large type.
import { follow } from "./follow.js";
import { t } from "./i18n.js";

function start(root) {
  const body = document.getElementById("live-body");
  const status = document.getElementById("live-status");
  follow({
    url: root.dataset.poll,
    etag: root.dataset.etag,
    events: root.dataset.events,
    credentials: "omit",
    changed: (html) => { body.innerHTML = html; },
    state: (name) => {
      // A finished game's link still follows it (a correction shows), but "live" would read as "in progress".
      if (name === "live" && body.querySelector(".game-over")) name = "over";
      if (status.dataset.state === name) return;  // said once, not read out again every 2 s
      status.dataset.state = name;
      if (name === "live") status.textContent = t("live");
      else if (name === "over") status.textContent = t("game over");
      else if (name === "gone") status.textContent = t("This live link was stopped");
      else status.textContent = t("reconnecting…");
      body.classList.toggle("stale", name === "gone");
      // A stopped link updates nothing any more, so the promise beside the title goes with it.
      const updates = document.getElementById("live-updates");
      if (updates) updates.hidden = name === "gone";
    },
  });

  // TV mode: large type for a screen across the table; remembered on this device.
  const tv = document.getElementById("tv-mode");
  function setTv(on) {
    document.body.classList.toggle("tv", on);
    tv.setAttribute("aria-pressed", on ? "true" : "false");
    // It says how to leave once on: a reload keeps TV mode (and hides the header), so it is the way out.
    tv.textContent = on ? t("Leave TV mode") : t("TV mode");
    localStorage.setItem("live-tv", on ? "1" : "0");
  }
  tv.addEventListener("click", () => setTv(!document.body.classList.contains("tv")));
  setTv(localStorage.getItem("live-tv") === "1" || new URLSearchParams(location.search).has("tv"));
}

const root = document.getElementById("live");
if (root) start(root);
