// Small enhancements; every page works without them. Delegated listeners survive htmx swaps.
(function () {
  "use strict";
  let tapped = 0;

  function renumberSeats(form) {
    const boxes = Array.from(form.querySelectorAll("input[data-seat]"));
    const chosen = boxes.filter((box) => box.checked);
    chosen.sort((a, b) => (Number(a.dataset.order) || 1e9) - (Number(b.dataset.order) || 1e9));
    boxes.forEach((box) => { box.parentElement.querySelector(".seat-number").textContent = ""; });
    chosen.forEach((box, index) => { box.parentElement.querySelector(".seat-number").textContent = "seat " + (index + 1); });
    const order = form.querySelector("input[name=seat_order]");
    if (order) order.value = chosen.map((box) => box.value).join(",");
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
    } else if (target.name && target.name.endsWith("_went_out") && target.checked) {
      const pips = form.elements[target.name.replace("_went_out", "_pips")];
      if (pips && pips.value === "") pips.value = "0";
    }
  });

  document.addEventListener("htmx:afterSwap", () => {
    const form = document.getElementById("new-game");
    if (form) renumberSeats(form);
  });

  document.addEventListener("submit", (event) => {
    const message = event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  }, true);

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById("new-game");
    if (form) renumberSeats(form);
  });
})();
