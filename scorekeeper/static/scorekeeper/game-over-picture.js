// A picture of a finished game for a chat (partials/game_over.html): the card's game, day, winners,
// places and totals drawn on a canvas as a PNG, handed to the phone's share sheet as a file where it
// can share files, else downloaded. Drawn from the card on the page (a member's sheet or the live
// view), so it holds nothing the page does not show. The button shows once the scripts run
// (site.css: html[data-js=ready]), on whatever page or redrawn part holds a card.

const WIDTH = 1080, PAD = 64, ROW = 100, TOP = 300;
const INK = "#0f172a", MUTED = "#475569", GOLD = "#854d0e", EDGE = "#ca8a04", PAPER = "#fefce8", WON = "#fef3c7";
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Color Emoji", sans-serif';
function text(node) { return node ? node.textContent.replace(/\s+/g, " ").trim() : ""; }
function read(card) {
  return {
    title: card.dataset.cardTitle, date: card.dataset.cardDate, brand: card.dataset.cardBrand,
    heading: text(card.querySelector("h2")), winners: text(card.querySelector(".winners")),
    ended: text(card.querySelector(".ended .ending")), tie: text(card.querySelector(".ended .tie-broken")),
    rows: Array.from(card.querySelectorAll(".final li")).map((li) => ({
      place: text(li.querySelector(".place")), name: text(li.querySelector(".name")),
      total: text(li.querySelector(".total")), won: li.classList.contains("won"),
      // "for Josefina from round 7", "joined after round 4: 98", "left after round 8", "Rating 26.1 → 27.4, +1.3"
      note: Array.from(li.querySelectorAll(".seat-note, .rating-move"), text).join(" · "),
    })),
  };
}
// `words` cut with an ellipsis to fit `width` in the context's font (whole characters, emoji too).
function fit(context, words, width) {
  if (context.measureText(words).width <= width) return words;
  const chars = Array.from(words);
  while (chars.length > 1 && context.measureText(chars.join("") + "…").width > width) chars.pop();
  return chars.join("") + "…";
}
// One line of text: `size` px at most, smaller (down to two thirds) before it is cut to fit `width`.
function line(context, words, x, y, weight, size, colour, width, align) {
  let px = size;
  do {
    context.font = `${weight} ${px}px ${FONT}`;
    px -= 2;
  } while (px >= size * 2 / 3 && context.measureText(words).width > width);
  context.fillStyle = colour;
  context.textAlign = align || "left";
  context.fillText(fit(context, words, width), x, y);
}
function draw(data) {
  const height = TOP + ROW * data.rows.length + (data.tie ? 220 : 170), inner = WIDTH - 2 * PAD;
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = height;
  const c = canvas.getContext("2d");
  c.fillStyle = PAPER;
  c.fillRect(0, 0, WIDTH, height);
  c.strokeStyle = EDGE;
  c.lineWidth = 10;
  c.strokeRect(5, 5, WIDTH - 10, height - 10);
  c.direction = "ltr";
  line(c, data.title, PAD, 112, 800, 62, INK, inner);
  line(c, `${data.heading} · ${data.date}`, PAD, 172, 400, 38, MUTED, inner);
  line(c, data.winners, PAD, 248, 700, 46, GOLD, inner);
  data.rows.forEach((row, index) => {
    const y = TOP + ROW * index, base = y + 66;
    if (row.won) {
      c.fillStyle = WON;
      c.fillRect(PAD - 24, y, inner + 48, ROW - 10);
    }
    line(c, row.place, PAD, base, 800, 50, row.won ? GOLD : MUTED, 110);
    line(c, row.total, WIDTH - PAD, base, 800, 56, INK, 260, "right");
    const totalWidth = c.measureText(row.total).width, nameWidth = inner - 120 - totalWidth - 40;
    if (!row.note) {
      line(c, row.name, PAD + 120, base, row.won ? 700 : 400, 50, INK, nameWidth);
      return;
    }
    // A seat's note under its name, in the row: the name a little higher and smaller.
    line(c, row.name, PAD + 120, base - 14, row.won ? 700 : 400, 44, INK, nameWidth);
    line(c, row.note, PAD + 120, base + 20, 400, 26, MUTED, nameWidth);
  });
  const foot = TOP + ROW * data.rows.length + 60;
  line(c, data.ended, PAD, foot, 400, 32, MUTED, inner);
  if (data.tie) line(c, data.tie, PAD, foot + 50, 400, 32, MUTED, inner);  // who won a level total, and why
  line(c, data.brand, WIDTH - PAD, height - 44, 700, 34, "#14532d", inner, "right");
  return canvas;
}
// The PNG's bytes at once (toDataURL is synchronous), so the share sheet opens within the tap.
function pngOf(canvas) {
  const bytes = atob(canvas.toDataURL("image/png").split(",")[1]);
  const array = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) array[i] = bytes.charCodeAt(i);
  return new Blob([array], { type: "image/png" });
}
function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.setAttribute("hx-boost", "false");
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}
document.addEventListener("click", async (event) => {
  const button = event.target.closest && event.target.closest("[data-card-picture]");
  if (!button) return;
  const card = button.closest("[data-card-title]");
  const data = read(card);
  const blob = pngOf(draw(data));
  const name = card.dataset.cardFile;
  const file = typeof File === "function" ? new File([blob], name, { type: "image/png" }) : null;
  if (file && navigator.canShare && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: data.title });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return;  // closed without sharing
    }
  }
  download(blob, name);
});
