// The book-ticks bench's probe, run in the page before any of its scripts (`page.addInitScript({ path })`). Plain
// JavaScript so it reaches the page as written (see tick-probe.js).
//
// A listener on every WebSocket the page opens stamps each order book push's arrival; `observe(region)` watches the
// order book's tables and, at the first change of their text after a push, records the delay from that push (from
// the earliest of several that arrived before one render: the page draws the latest book once a frame). A push
// after which nothing changed within a frame's time is counted as unchanged and not measured.
(() => {
  /** @type {{ at: number }[]} */
  let pending = [];
  let observing = false;
  const probe = { latencies: [], frameDelays: [], afterFrame: [], pushes: 0, unchanged: 0, coalesced: 0 };

  const Native = window.WebSocket;
  class Tapped extends Native {
    /** @param {string | URL} url @param {string | string[]} [protocols] */
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (event) => {
        const at = performance.now();
        if (typeof event.data !== 'string' || !event.data.includes('notifications/book')) return;
        probe.pushes += 1;
        if (!observing) return;
        /** @type {{ at: number, frame?: number }} */
        const push = { at };
        requestAnimationFrame(() => {
          push.frame = performance.now();
          probe.frameDelays.push(push.frame - at);
        });
        // An earlier push that changed nothing on screen for longer than a frame is not waiting to be shown
        const stale = pending.filter((p) => at - p.at > 50);
        probe.unchanged += stale.length;
        pending = pending.filter((p) => at - p.at <= 50);
        pending.push(push);
      });
    }
  }
  window.WebSocket = Tapped;

  /** @param {Element} region */
  function observe(region) {
    pending = [];
    observing = true;
    new MutationObserver(() => {
      const now = performance.now();
      const [first, ...rest] = pending;
      if (!first) return;
      probe.latencies.push(now - first.at);
      if (first.frame !== undefined) probe.afterFrame.push(Math.max(0, now - first.frame));
      probe.coalesced += rest.length;
      pending = [];
    }).observe(region, { subtree: true, childList: true, characterData: true });
  }

  window.__bookProbe = { observe, take: () => JSON.parse(JSON.stringify(probe)) };
})();
