// The cockpit-ticks bench's probe, run in the page before any of its scripts (`page.addInitScript({ path })`). Plain
// JavaScript so it reaches the page as written: a TypeScript function serialised from the bench would carry the
// transpiler's helpers, which do not exist in the page.
//
// A listener on every WebSocket the page opens (added in the constructor, so before the runtime sets `onmessage`)
// stamps each ticker frame's arrival; `observe(table)` watches the market watch's rows and, when a price cell shows
// a new value, records the delay from the earliest tick of that symbol still waiting to be shown. `take()` returns
// what was collected, with the long tasks seen while observing and the nodes the market watch removed (a cell
// whose text changes replaces at most a text node; a remounted row replaces all of its elements).
(() => {
  /** @type {Map<string, { price: number, at: number }[]>} */
  const pending = new Map();
  /** @type {Map<string, number>} */
  const shown = new Map();
  const probe = {
    latencies: [],
    frameDelays: [],
    afterFrame: [],
    longTasks: [],
    ticks: 0,
    removedNodes: 0,
    unchanged: 0,
    coalesced: 0,
    unmatched: 0,
  };
  /** @param {string} text */
  const decimals = (text) => text.split('.')[1]?.length ?? 0;

  const Native = window.WebSocket;
  class Tapped extends Native {
    /** @param {string | URL} url @param {string | string[]} [protocols] */
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (event) => {
        const at = performance.now();
        if (typeof event.data !== 'string' || !event.data.includes('notifications/ticker')) return;
        const params = JSON.parse(event.data).params ?? {};
        const symbol = params.symbol;
        const price = Number(params.lastPrice);
        if (typeof symbol !== 'string' || !Number.isFinite(price)) return;
        probe.ticks += 1;
        /** @type {{ price: number, at: number, frame?: number }} */
        const tick = { price, at };
        requestAnimationFrame(() => {
          tick.frame = performance.now();
          probe.frameDelays.push(tick.frame - at);
        });
        const current = shown.get(symbol);
        if (current !== undefined && Math.abs(current - price) < 1e-9) {
          probe.unchanged += 1;
          return;
        }
        const queue = pending.get(symbol) ?? [];
        queue.push(tick);
        pending.set(symbol, queue);
      });
    }
  }
  window.WebSocket = Tapped;

  /** @param {Element} row */
  const read = (row) => {
    const cells = row.querySelectorAll('td');
    const symbol = cells[0]?.textContent?.trim();
    const text = cells[1]?.textContent?.trim().replaceAll(',', '');
    return symbol && text ? { symbol, text } : undefined;
  };

  /** @param {Element} table */
  function observe(table) {
    for (const row of table.querySelectorAll('tbody tr')) {
      const r = read(row);
      if (r) shown.set(r.symbol, Number(r.text));
    }
    // Ticks that came before the watch started are not the measurement's
    pending.clear();
    // What kept the main thread from rendering: tasks over 50 ms while measured
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
    new MutationObserver((mutations) => {
      const now = performance.now();
      const rows = new Set();
      for (const m of mutations) {
        probe.removedNodes += m.removedNodes.length;
        const el = m.target instanceof Element ? m.target : m.target.parentElement;
        const row = el?.closest('tr');
        if (row) rows.add(row);
      }
      for (const row of rows) {
        const r = read(row);
        if (!r) continue;
        const value = Number(r.text);
        if (shown.get(r.symbol) === value) continue;
        shown.set(r.symbol, value);
        // The latest waiting tick the cell now shows (to its decimals); the earliest waiting is where the delay starts
        const half = 0.5 * 10 ** -decimals(r.text);
        const queue = pending.get(r.symbol) ?? [];
        let match = -1;
        for (let i = queue.length - 1; i >= 0; i--) {
          if (Math.abs(queue[i].price - value) <= half + 1e-9) {
            match = i;
            break;
          }
        }
        if (match < 0) {
          probe.unmatched += 1;
          continue;
        }
        probe.latencies.push(now - queue[0].at);
        // The page's own part: from the tick's next frame (the least a page rendering once a frame can wait) to the
        // cell; 0 when the cell changed in that frame before the probe's own callback for the tick ran
        probe.afterFrame.push(queue[0].frame === undefined ? 0 : now - queue[0].frame);
        probe.coalesced += match;
        pending.set(r.symbol, queue.slice(match + 1));
      }
    }).observe(table, { subtree: true, childList: true, characterData: true });
  }

  Object.defineProperty(window, '__tickProbe', { value: { observe, take: () => probe } });
})();
