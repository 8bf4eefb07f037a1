// Notices of changes made on other phones: one line, clear of the title, the status and Save.
// The newest change, with "+2 more" when others came before it: a tap on the line shows them all
// (and the newest in full). Read out politely; gone after 12 s, or at once with ×. At the bottom
// of the screen; on a round form, in the space kept above Save while it is free (placeBar).
import { t, tn } from "./i18n.js";

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

export function notify(text) {
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
export function placeBar() {
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
