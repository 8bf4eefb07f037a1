// What any page may offer: a Print button (data-print: the blank sheet, the score sheet). A form
// that asks first (data-confirm) is confirm.js's.

document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});
