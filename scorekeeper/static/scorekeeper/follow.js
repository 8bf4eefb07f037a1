// Pages that follow a game by themselves ask for what they show with the ETag they have (a 304
// costs the server next to nothing): each time its stream of pushed updates (`events`, one
// EventSource per page) says the game changed, or every 2 s while the page is in view when it has
// no stream, or after the stream failed to connect three times running. They say "live" or
// "reconnecting", back off while the network is gone, and ask again at once when the phone wakes
// or the network comes back. One loop for the live link's page (live.js) and for the pages of
// members (following.js); each says what a new answer changes on it.
//   follow({url, etag, events, credentials, first, changed(html), state(name)}) -> {now(), stop()}
// `credentials`: "omit" for the live link (no account), "same-origin" for a member's session.
// `changed(html)` may return a promise: the answer counts as drawn once it is done.
// `state(name)`: "live", "reconnecting", or "gone" (a 403 or 404, or the session ended: a redirect).
// `now()` asks at once (after the question on its way, if one is) and resolves once the answer is drawn.

const EVERY = 2000, LONGEST = 15000, FAILED_CONNECTS = 3;

export function follow(options) {
  const stopped = new AbortController();
  let etag = options.etag, failures = 0, timer = null, asking = null, again = false;
  let stream = null, streamed = false;  // the EventSource; whether it says when to ask (no timer then)
  function later(delay) {
    clearTimeout(timer);
    if (!stopped.signal.aborted && !streamed) timer = setTimeout(poll, delay);
  }
  function stop() {
    stopped.abort();
    clearTimeout(timer);
    if (stream) stream.close();
  }
  // The stream: each `state` means the page asks now; it reconnects by itself (after its `retry:`,
  // sending the last ETag it had). Three failed connects in a row, and the page polls instead. A
  // stream that ends for good (the link revoked, the session over) leaves the answer to one ask.
  function listen() {
    let failed = 0, opened = false;
    stream = new EventSource(options.events, { withCredentials: options.credentials !== "omit" });
    streamed = true;
    clearTimeout(timer);
    stream.addEventListener("open", () => { failed = 0; opened = true; });
    stream.addEventListener("state", () => poll());  // its first comes at once: the page's ETag is checked
    // Access taken away (a revoked link, a removal, a sign-out): the stream ends for good, and the
    // page's own ask says how (a 404, a 403, a redirect to sign in) at once, not after a reconnect.
    stream.addEventListener("gone", () => {
      stream.close();
      streamed = false;
      poll();
    });
    stream.addEventListener("error", () => {
      if (!opened) failed += 1;
      opened = false;
      if (failed >= FAILED_CONNECTS || stream.readyState === EventSource.CLOSED) {
        stream.close();
        streamed = false;
        poll();  // the poll says what happened (gone, or the timer goes on from its answer)
      }
    });
  }
  // One question and its answer drawn; the delay before the next (null: no next).
  async function ask() {
    let delay = EVERY;
    try {
      // The page's language asked for by name: the live link sends no cookies.
      const headers = { "Accept-Language": document.documentElement.lang };
      if (etag) headers["If-None-Match"] = etag;
      const response = await fetch(options.url, {
        cache: "no-store", credentials: options.credentials, redirect: "manual", headers, signal: stopped.signal,
      });
      if (response.type === "opaqueredirect" || response.status === 403 || response.status === 404) {
        stop();
        options.state("gone");
        return null;
      }
      if (response.status === 200) {
        const html = await response.text();
        etag = response.headers.get("ETag") || etag;
        await options.changed(html);
      } else if (response.status === 429) {
        delay = 1000 * (Number(response.headers.get("Retry-After")) || 10);
      } else if (response.status !== 304) {
        throw new Error(String(response.status));
      }
      failures = 0;
      options.state("live");
    } catch (error) {
      if (stopped.signal.aborted) return null;
      failures += 1;
      options.state("reconnecting");
      delay = Math.min(EVERY * 2 ** failures, LONGEST);
    }
    return delay;
  }
  function poll() {
    if (stopped.signal.aborted || document.visibilityState === "hidden") return Promise.resolve();  // asked again on visibilitychange
    if (asking) { again = true; return asking; }  // one question at a time; the next goes as soon as it is answered
    asking = ask().then((delay) => {
      asking = null;
      if (delay !== null) later(again ? 0 : delay);
      again = false;
    });
    return asking;
  }
  function now() {
    return asking ? asking.then(poll) : poll();
  }
  const listening = { signal: stopped.signal };
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") poll(); }, listening);
  window.addEventListener("online", () => {
    if (options.events && window.EventSource && !streamed) listen();  // back from the poll it fell back to
    poll();
  }, listening);
  window.addEventListener("offline", () => options.state("reconnecting"), listening);
  if (options.events && window.EventSource) {
    listen();
    if (options.first !== undefined) timer = setTimeout(poll, options.first);  // a kept copy catches up at once
  } else {
    later(options.first === undefined ? EVERY : options.first);
  }
  return { now, stop };
}
