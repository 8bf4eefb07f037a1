// A club night's TV (issue 39): a TV cannot scroll, so every live table and the night's standings
// share one screen (the type steps down through data-fit, site.css, while the page would scroll),
// and the table where a round was just played is highlighted for a few seconds, with the totals it
// moved. It watches what live.js swaps into #live-body; how the page gets its updates is live.js's.
const HIGHLIGHT_MS = 6000;
const STEPS = 6;  // data-fit 1..6: each a little smaller type (site.css)

// What each table shows that a round changes: its rounds, finished or not, each player's total.
function tables(body) {
  return new Map([...body.querySelectorAll(".night-table")].map((table) => [table.id, {
    rounds: table.dataset.rounds,
    finished: table.classList.contains("finished"),
    totals: new Map([...table.querySelectorAll(".table-players li")].map(
      (row) => [row.querySelector(".who").textContent, row.querySelector(".total").textContent])),
  }]));
}

function fit(root) {
  delete root.dataset.fit;
  if (!document.body.classList.contains("tv")) return;
  const page = document.documentElement;
  const over = () => page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth;
  for (let step = 1; step <= STEPS && over(); step += 1) root.dataset.fit = String(step);
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
