// The round form of a followed game (following.js) and its double. Its doubles are the ones still
// open, the expected next one first; choosing a later one skips the ones before it. After a change
// by anyone:
// - its double was taken by a round another phone saved: with a hand typed, the form goes straight
//   to the comparison (the server's "Keep theirs / Replace with mine", the differing numbers
//   marked), as Save would; it never offers to move the hand to another double, which would save
//   the same hand again as a round of its own. With nothing typed yet, it becomes the next round's;
// - its double can no longer start the round otherwise: it stays chosen, marked taken, and Save
//   shows why (the form keeps the version it was drawn for);
// - its round was saved by another phone with another double: with a hand typed, the comparison as
//   above; with nothing typed, it becomes the next round's;
// - doubles it skips were opened again (an undo): a form whose double the person never chose moves
//   to the new expected double and says why; one whose double the person chose keeps it and says
//   that saving it skips them, offering the expected one.
// It says so in the space kept for it just above Save (#double-note): nothing moves under the thumb.
import { t, tn } from "./i18n.js";
import { placeBar } from "./notices.js";

let page = null;  // the followed round form's page: {root, state, follower, seen}; null elsewhere
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

// The page following.js follows, when it is a round form (null when it is not, or none is followed).
export function followRoundForm(followed) {
  page = followed;
  const form = document.getElementById("round-form");
  if (!page || !form || !page.state.doubles) return;
  const value = form.elements.starting_double.value;
  form.dataset.skipsSeen = skipsOf(page.state, value).join(",");
  form.dataset.picked = value !== expectedOf(page.state) ? "1" : "";  // a form sent back keeps what was chosen
}

// The form adjusted to the game's new `state` (`fresh`: the changes not shown yet).
export async function adjustRoundForm(state, fresh) {
  const form = document.getElementById("round-form");
  if (!form || !state.doubles) return;
  // Rounds waiting on this phone hold doubles the server does not know yet: offline.js sees to them.
  // (Read when needed: offline.js runs after the modules whose submit listeners must come first.)
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
  // The round this form is entered as (sent as `number`) follows the game, as its title does,
  // unless another phone saved it while a hand was typed for it: then the form goes straight to the
  // comparison (the server's "Keep theirs / Replace with mine"), never a second round under the next number.
  const number = form.elements.number;
  if (number && !state.finished) {
    if (Number(number.value) < state.next_number && typedIn(form)) {
      const save = document.getElementById("save-round");
      form.dataset.classic = "1";  // the page's own post, with its version and number: the server compares
      if (save) form.requestSubmit(save);
      return;
    }
    number.value = String(state.next_number);
  }
  if (chosen === "") return;
  if (!open) {
    const saved = savedWith(state, Number(chosen));
    if (saved && !state.finished && !typedIn(form)) {  // nothing typed: the form is the next round's
      select.value = expectedOf(state);
      chooseOpen(form, state);
      say(form, "moved", t("{words} This form is now for round {number} ({double}).", {
        words: takenWords(state, Number(chosen), label), number: state.next_number, double: labelOf(state, select.value) }));
      tell(select);
      return;
    }
    if (saved && !state.finished) {  // a hand typed for the double they saved: theirs beside it, at once
      say(form, "taken", takenWords(state, Number(chosen), label));
      const save = document.getElementById("save-round");
      form.dataset.classic = "1";  // the page's own post, with the version it was drawn for: the server compares
      if (save) form.requestSubmit(save);
      return;
    }
    say(form, "taken", takenWords(state, Number(chosen), label));
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

// The round saved last, when it holds this double (why it is no longer open, rather than skipped).
function savedWith(state, chosen) {
  const saved = (state.changes || []).find((change) => change.action === "round_recorded" || change.action === "round_restored");
  return saved && saved.double === chosen ? saved : null;
}
// Whether anything of a hand was typed or ticked on the form.
function typedIn(form) {
  return Array.from(form.querySelectorAll(".player-row input")).some((box) =>
    (box.type === "checkbox" ? box.checked : box.value.trim() !== ""));
}

function takenWords(state, chosen, label) {
  const saved = savedWith(state, chosen);
  if (state.finished) return t("This game is over: this round cannot be saved.");
  if (saved && saved.by) return t("{name} saved round {number} with {double} a moment ago.", { name: saved.by, number: saved.round, double: label });
  if (saved) return t("Another phone saved round {number} with {double} a moment ago.", { number: saved.round, double: label });
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
    use.textContent = t("Use {double}", { double: labelOf(page.state, offer) });
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
  if (!button || !form || !page) return;
  form.elements.starting_double.value = button.dataset.useDouble;
  form.dataset.picked = "";  // the expected double, followed from now on
  chooseOpen(form, page.state);
  tell(form.elements.starting_double);
  form.elements.starting_double.focus();
});
document.addEventListener("change", (event) => {
  const select = event.target;
  if (telling || select.name !== "starting_double" || !select.form || select.form.id !== "round-form") return;
  if (!page || !page.state.doubles) return;
  select.form.dataset.picked = "1";
  if (isOpen(page.state, select.value)) chooseOpen(select.form, page.state);
});
