// The camera beside each player's pips (issue 41), shown where the page can count a photo. What it
// does (hand-photo.js and its sender, about 6 KB compressed) is loaded once a photo is chosen, or
// the camera is tapped offline (it says it needs a connection), not with every round form.
let loaded = null;

function load() {
  loaded = loaded || import("./hand-photo.js");
  return loaded;
}

function rowOf(element) { return element.closest(".player-row"); }

function offer() {
  if (!document.getElementById("hand-photo") || !window.fetch || !window.FormData) return;
  document.querySelectorAll("#round-form [data-hand-photo]").forEach((camera) => { camera.hidden = false; });
}

document.addEventListener("change", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.form || box.form.id !== "round-form") return;
  if (box.matches("[data-hand-photo] input") && box.files && box.files[0]) {
    const file = box.files[0];
    load().then((photo) => photo.count(rowOf(box), file));
  }
});

document.addEventListener("click", (event) => {
  const camera = event.target.closest && event.target.closest("[data-hand-photo] input");
  if (!camera || !camera.form || camera.form.id !== "round-form" || navigator.onLine) return;
  event.preventDefault();  // no camera for nothing
  load().then((photo) => photo.needsConnection(rowOf(camera))).catch(() => null);
});

document.addEventListener("DOMContentLoaded", offer);
document.addEventListener("htmx:afterSettle", offer);
if (document.readyState !== "loading") offer();
