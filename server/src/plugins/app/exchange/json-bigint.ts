/**
 * JSON.parse that keeps integers beyond Number.MAX_SAFE_INTEGER exact: Binance sends order ids as bare 64-bit
 * integers (real ETHUSDT ids exceed 2^53), which `JSON.parse` silently rounds. Such integers are quoted before
 * parsing, so they arrive as decimal strings; everything else parses as usual. Node 20 has no `JSON.parse` source
 * access, hence the small scanner (strings are skipped, so digits inside them are never touched).
 */
export function parseJsonBigSafe(text: string): unknown {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i += 1;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) break;
        else i += 1;
      }
      i += 1;
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i += 1;
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d)
          i += 1;
        else break;
      }
      const token = text.slice(start, i);
      if (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, start)}"${token}"`;
        last = i;
      }
      continue;
    }
    i += 1;
  }
  return JSON.parse(last === 0 ? text : out + text.slice(last));
}
