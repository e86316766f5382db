import { isInteger, isSafeNumber, parse } from 'lossless-json';

/** Integers beyond Number.MAX_SAFE_INTEGER as decimal strings, every other number as `JSON.parse` reads it */
const parseNumber = (text: string): number | string =>
  isInteger(text) && !isSafeNumber(text) ? text : Number(text);

/**
 * JSON.parse that keeps integers beyond Number.MAX_SAFE_INTEGER exact: Binance sends order ids as bare 64-bit
 * integers (real ETHUSDT ids exceed 2^53), which `JSON.parse` silently rounds; here they arrive as decimal strings.
 * Node 20's `JSON.parse` has no source access, hence lossless-json; a repeated key keeps its last value, as in
 * `JSON.parse`. Throws a SyntaxError on malformed JSON.
 */
export function parseJsonBigSafe(text: string): unknown {
  return parse(text, null, { parseNumber, onDuplicateKey: ({ newValue }) => newValue });
}
