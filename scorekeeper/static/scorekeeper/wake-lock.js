// Keep the screen on during a game, where the browser offers the Wake Lock API (a toggle; the
// choice is remembered on this device and taken up again when the page comes back into view).
import { t } from "./i18n.js";

let lock = null;
const wanted = () => localStorage.getItem("keep-screen-on") === "1";

async function hold(button) {
  try {
    lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => { lock = null; show(button); });
  } catch (error) {
    lock = null;
    button.textContent = t("Screen lock unavailable");
    button.dataset.unavailable = "1";
  }
  show(button);
}
function show(button) {
  if (!button.isConnected) return;
  button.setAttribute("aria-pressed", lock ? "true" : "false");
  if (lock || !button.dataset.unavailable) {
    button.textContent = lock ? t("Screen stays on") : t("Keep the screen on");
  }
}
function setUp() {
  const button = document.getElementById("wake-lock");
  if (!button) return;
  button.hidden = false;
  show(button);
  if (wanted() && !lock) hold(button);
}

if ("wakeLock" in navigator) {
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
}
