// What any page may offer: a form that asks before it does something hard to undo (data-confirm:
// the question), and a Print button (data-print: the blank sheet, the score sheet).

// Registered first (app.js): a form not confirmed is stopped before any other script takes it.
document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
}, true);

document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});
