// A paper game's grid (templates/scorekeeper/paper_game.html) moves like a spreadsheet: Enter and
// Tab go to the next cell (along the row, then the next row's first), Shift with either goes back;
// Enter on the last cell leaves the focus on Save. Only Save sends the sheet: Enter on a toggle goes
// on as from its cell, and the form's disabled first button keeps the browser's own Enter from
// sending it (scripts or none). The toggles beside a cell (held the 0-0, went out on a double) show
// in the rows typed in so far (a row opens when a cell of it takes the focus, and stays open:
// nothing moves under a finger on its way to Save); they are tapped, or reached from the cell with
// the right arrow at the end of its text. A refused save puts the focus on the first cell marked
// wrong, what was typed kept in it.

function cellsOf(form) { return Array.from(form.querySelectorAll("input.cell")); }

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (!(target instanceof HTMLInputElement) || !target.form || target.form.id !== "paper-grid") return;
  const cell = target.classList.contains("cell") ? target : target.closest("td")?.querySelector("input.cell");
  if (!cell || (cell !== target && event.key !== "Enter")) return;
  if (event.key === "ArrowRight" && cell.selectionStart === cell.value.length) {
    const toggle = cell.closest("td").querySelector("input[type=checkbox]");
    if (toggle) { event.preventDefault(); toggle.focus(); }
    return;
  }
  if ((event.key !== "Enter" && event.key !== "Tab") || event.altKey || event.ctrlKey || event.metaKey) return;
  const cells = cellsOf(cell.form);
  const at = cells.indexOf(cell) + (event.shiftKey ? -1 : 1);
  if (at < 0) return;  // before the first cell: the browser's own way back
  event.preventDefault();  // Enter never sends a half-typed sheet
  const next = cells[at] || cell.form.querySelector("#save-paper");
  next.focus();
  if (next instanceof HTMLInputElement) next.select();
});

// A cell is as wide as what was typed in it ("8*6,3*2" whole, never "8*6,3*"): its column grows,
// and the grid scrolls sideways in its box as it does for many players (site.css reads --typed).
function fit(cell) { cell.style.setProperty("--typed", String(cell.value.length)); }
function fitAll() { document.querySelectorAll("#paper-grid input.cell").forEach(fit); }

document.addEventListener("input", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.matches("#paper-grid input.cell")) fit(event.target);
});

document.addEventListener("focusin", (event) => {
  const row = event.target instanceof HTMLElement && event.target.closest("#paper-grid tbody tr");
  if (row) row.classList.add("opened");
});

function fold() {
  const table = document.querySelector("#paper-grid .paper-table");
  if (table) table.classList.add("folding");
}

function focusFirstProblem() {
  const form = document.getElementById("paper-grid");
  const wrong = form && form.querySelector("td.has-error input.cell, tr.has-error input.cell");
  if (!wrong) return;
  setTimeout(() => {  // after htmx's own scroll to the top of a boosted answer
    wrong.focus({ preventScroll: true });
    wrong.scrollIntoView({ block: "center" });
  }, 0);
}
document.addEventListener("htmx:afterSettle", () => { fold(); fitAll(); focusFirstProblem(); });
window.addEventListener("load", focusFirstProblem);
fold();
fitAll();
document.addEventListener("DOMContentLoaded", () => { fold(); fitAll(); });
