// A club night's TV (issue 39): a TV cannot scroll, so every live table and the night's standings
// share one screen (fit picks the type and how many tables stand side by side),
// and the table where a round was just played is highlighted for a few seconds, with the totals it
// moved. It watches what live.js swaps into #live-body; how the page gets its updates is live.js's.
const HIGHLIGHT_MS = 6000;
// The night's type, in hundredths of the screen's height (site.css: --type), largest first; names
// stay whole down to WHOLE_FROM (20 px at 720p), below it a larger type cuts the longest instead.
const TYPES = [7, 6.4, 5.8, 5.3, 4.9, 4.5, 4.2, 3.9, 3.6, 3.3, 3, 2.8, 2.6, 2.4, 2.2, 2, 1.8];
const WHOLE_FROM = 2.8;

// What each table shows that a round changes: its rounds, finished or not, each player's total.
function tables(body) {
  return new Map([...body.querySelectorAll(".night-table")].map((table) => [table.id, {
    rounds: table.dataset.rounds,
    finished: table.classList.contains("finished"),
    totals: new Map([...table.querySelectorAll(".table-players li")].map(
      (row) => [row.querySelector(".who").textContent, row.querySelector(".total").textContent])),
  }]));
}

// The layout for the largest type (vh) that keeps the page from scrolling with every name whole on
// its line: --type, and --cols live tables side by side (site.css). Without one at a readable type,
// the largest type that fits, a long name cut with an ellipsis (tryout 39).
function fit(root) {
  root.style.removeProperty("--type");
  root.style.removeProperty("--cols");
  if (!document.body.classList.contains("tv") || !matchMedia("(orientation: landscape)").matches) return;
  const page = document.documentElement;
  const names = [...root.querySelectorAll(".table-players .who, .night-standings .who, .night-table h3")];
  const cards = [...root.querySelectorAll(".night-table")];
  const live = Math.max(1, root.querySelectorAll(".night-table:not(.finished)").length);
  const over = () => page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth;
  const cut = () => names.some((name) => name.scrollWidth > name.clientWidth + 1);
  // Cut, a name still shows its first six letters or so, and no table runs past its card.
  const readable = () => names.every((name) => name.clientWidth + 1 >= Math.min(name.scrollWidth,
    6 * parseFloat(getComputedStyle(name).fontSize))) && cards.every((card) => card.scrollWidth <= card.clientWidth + 1);
  const set = (type, cols) => {
    root.style.setProperty("--type", String(type));
    root.style.setProperty("--cols", String(cols));
  };
  const largest = (types, fits) => {
    let best = null;
    for (let cols = live; cols >= 1; cols -= 1) {
      for (const type of types) {
        if (best && type <= best.type) break;
        set(type, cols);
        if (fits()) { best = { type, cols }; break; }
      }
    }
    return best;
  };
  const best = largest(TYPES.filter((type) => type >= WHOLE_FROM), () => !over() && !cut())
    || largest(TYPES, () => !over() && readable()) || { type: TYPES[TYPES.length - 1], cols: live };
  set(best.type, best.cols);
}

function start(root, body) {
  let seen = tables(body);
  const glowing = new Map();  // a table's id -> {until, rows (names whose total moved)}
  let timer = null;
  function glow() {
    const now = Date.now();
    for (const [id, { until }] of glowing) if (until <= now) glowing.delete(id);
    body.querySelectorAll(".just-played").forEach((element) => element.classList.remove("just-played"));
    for (const [id, { rows }] of glowing) {
      const table = body.querySelector(`#${CSS.escape(id)}`);
      if (!table) continue;
      table.classList.add("just-played");
      table.querySelectorAll(".table-players li").forEach((row) => {
        if (rows.has(row.querySelector(".who").textContent)) row.classList.add("just-played");
      });
    }
    clearTimeout(timer);
    if (glowing.size) timer = setTimeout(glow, Math.min(...[...glowing.values()].map((g) => g.until)) - now);
  }
  function refresh() {
    const now = tables(body);
    for (const [id, table] of now) {
      const before = seen.get(id);
      if (!before || (before.rounds === table.rounds && before.finished === table.finished)) continue;
      const rows = new Set([...table.totals].filter(([name, total]) => before.totals.get(name) !== total).map(([name]) => name));
      glowing.set(id, { until: Date.now() + HIGHLIGHT_MS, rows });
    }
    seen = now;
    glow();
    fit(root);
  }
  new MutationObserver(refresh).observe(body, { childList: true });
  new MutationObserver(() => fit(root)).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  window.addEventListener("resize", () => fit(root));
  fit(root);
}

const root = document.querySelector("#live.night-live");
if (root) start(root, root.querySelector("#live-body"));
