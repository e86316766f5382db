// Collects the page's paint timings from its first moment (added with page.addInitScript): FCP and the latest LCP
window.__paint = { fcp: null, lcp: null };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.name === 'first-contentful-paint') window.__paint.fcp = entry.startTime;
  }
}).observe({ type: 'paint', buffered: true });
new PerformanceObserver((list) => {
  const entries = list.getEntries();
  const last = entries[entries.length - 1];
  if (last) window.__paint.lcp = last.startTime;
}).observe({ type: 'largest-contentful-paint', buffered: true });
