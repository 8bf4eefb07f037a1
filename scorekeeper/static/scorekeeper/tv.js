// TV mode (issue 39): a TV cannot scroll, so the sheet shows the newest rounds that fit under the
// standings (the oldest give way first), and the round just played is highlighted for a few seconds.
// It watches what live.js swaps into #live-body; how the page gets its updates is live.js's business.
const HIGHLIGHT_MS = 6000;

function rounds(body) {
  return [...body.querySelectorAll("#sheet tbody tr.played, #sheet tbody tr.skipped")];
}

function fit(body) {
  const rows = [...body.querySelectorAll("#sheet tbody tr")];
  rows.forEach((row) => { row.hidden = false; });
  if (!document.body.classList.contains("tv")) return;
  const root = document.documentElement;
  const over = () => root.scrollHeight > window.innerHeight;
  const played = rows.filter((row) => !row.matches(".upcoming, .next"));
  for (const row of played.slice(0, -1)) {  // the newest round always stays
    if (!over()) break;
    row.hidden = true;
  }
}

function start(body) {
  let seen = rounds(body).length;
  let timer = null;
  const refresh = () => {
    const now = rounds(body);
    if (now.length > seen && now.length) {
      const newest = now[now.length - 1];
      newest.classList.add("just-played");
      clearTimeout(timer);
      timer = setTimeout(() => newest.classList.remove("just-played"), HIGHLIGHT_MS);
    }
    seen = now.length;
    fit(body);
  };
  new MutationObserver(refresh).observe(body, { childList: true });
  new MutationObserver(() => fit(body)).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  window.addEventListener("resize", () => fit(body));
  fit(body);
}

const body = document.querySelector("#live:not(.night-live) #live-body");
if (body) start(body);
