// One way to ask before something hard to undo: a form (or its submit button) with data-confirm
// holds the question. Cancel stops the action whatever else listens: htmx (hx-boost sends a
// form from a listener on the form itself, and it does not look at defaultPrevented), the outbox,
// the follower. So a refused submit is stopped here, on the document in the capture phase, before
// any of them sees it: preventDefault (no native post) and stopImmediatePropagation (no other
// listener). A request htmx makes from an element with data-confirm without such a submit (an
// hx-post, htmx.ajax) asks through htmx's own htmx:confirm event. This module is imported first
// (app.js), so its listener runs before every other capture listener on the document.

const answered = new WeakSet();  // submit events said yes to: htmx does not ask for them again

function questionOf(form, submitter) {
  return (submitter && submitter.dataset && submitter.dataset.confirm) || form.dataset.confirm || "";
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = questionOf(form, event.submitter);
  if (!question) return;
  if (window.confirm(question)) {
    answered.add(event);
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
}, true);

document.addEventListener("htmx:confirm", (event) => {
  const { elt, triggeringEvent } = event.detail;
  if (triggeringEvent && answered.has(triggeringEvent)) return;
  const form = elt instanceof HTMLFormElement ? elt : null;
  const question = (elt.dataset && elt.dataset.confirm) || (form ? questionOf(form, null) : "");
  if (!question || window.confirm(question)) return;
  event.preventDefault();  // htmx sends nothing (until issueRequest(), which is never called)
});
