// The history-scroll bench's probe, run in the page before any of its scripts (`page.addInitScript({ path })`). Plain
// JavaScript so it reaches the page as written: a TypeScript function serialised from the bench would carry the
// transpiler's helpers, which do not exist in the page.
//
// `__longTasks`: every long task from the first script on (PerformanceObserver 'longtask'), with its start, so the
// bench can tell the page's load from the scroll. `__scrollToBottom(table, rows, step)`: scrolls the table's
// scrolling frame `step` px each animation frame, waiting at the bottom of what is loaded for the next page, until
// `rows` rows are in and the frame is at its end; resolves with the time taken, the frames and the gaps over 50 ms.
(() => {
  /** @type {{ start: number, duration: number }[]} */
  const longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });

  /** @param {Element} table @param {number} rows @param {number} step */
  function scrollToBottom(table, rows, step) {
    const frame = /** @type {HTMLElement} */ (table.closest('[data-slot="scroll-region"]'));
    const count = () => Number(table.getAttribute('aria-rowcount') ?? 0) - 1;
    const start = performance.now();
    let last = start;
    let frames = 0;
    /** @type {number[]} */
    const slowFrames = [];
    return new Promise((resolve, reject) => {
      /** @param {number} now */
      const tick = (now) => {
        frames += 1;
        if (now - last > 50) slowFrames.push(now - last);
        last = now;
        if (now - start > 180_000) {
          reject(new Error(`only ${count()} of ${rows} rows after 3 minutes`));
          return;
        }
        const bottom = frame.scrollHeight - frame.clientHeight;
        if (frame.scrollTop >= bottom - 1 && count() >= rows) {
          resolve({
            ms: performance.now() - start,
            frames,
            slowFrames,
            rowCount: count(),
            domRows: table.querySelectorAll('tbody tr:not([aria-hidden="true"])').length,
          });
          return;
        }
        frame.scrollTop = Math.min(bottom, frame.scrollTop + step);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }

  Object.defineProperty(window, '__longTasks', { value: longTasks });
  Object.defineProperty(window, '__scrollToBottom', { value: scrollToBottom });
})();
