import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBigSafe } from './json-bigint';

describe('parseJsonBigSafe', () => {
  it('keeps 64-bit order ids exact as decimal strings', () => {
    const parsed = parseJsonBigSafe('{"orderId":9007199254740993,"price":"1.5","n":[18446744073709551615]}');
    expect(parsed).toEqual({ orderId: '9007199254740993', price: '1.5', n: ['18446744073709551615'] });
    // Plain JSON.parse would have rounded it
    expect(String((JSON.parse('{"a":9007199254740993}') as { a: number }).a)).not.toBe('9007199254740993');
  });

  it('leaves safe numbers, decimals and digits inside strings alone', () => {
    const text =
      '{"a":12,"b":-3.25e2,"c":"x,12345678901234567890,y","d":9007199254740991,"e":"q\\"1234567890123456789"}';
    expect(parseJsonBigSafe(text)).toEqual(JSON.parse(text));
  });

  it('reads any JSON as JSON.parse does, except that integers past 2^53 keep their digits', () => {
    // fc.json writes numbers with JSON.stringify, so String(n) gives back the digits the text holds
    const expected = (v: unknown): unknown => {
      if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) && !/e/i.test(String(v))) {
        return String(v);
      }
      if (Array.isArray(v)) return v.map(expected);
      if (v && typeof v === 'object') {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expected(x)]));
      }
      return v;
    };
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(parseJsonBigSafe(text)).toEqual(expected(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('turns every integer beyond 2^53 into its exact digits, wherever it sits', () => {
    const unsafe = fc
      .bigInt({ min: 2n ** 53n + 1n, max: 2n ** 64n })
      .chain((n) => fc.constantFrom(n, -n))
      .map(String);
    fc.assert(
      fc.property(unsafe, fc.string(), (digits, key) => {
        const text = `{${JSON.stringify(key)}:[${digits},{"id":${digits}}]}`;
        expect(parseJsonBigSafe(text)).toEqual({ [key]: [digits, { id: digits }] });
      }),
    );
  });

  it('still throws on malformed JSON', () => {
    expect(() => parseJsonBigSafe('{"a":')).toThrow();
  });
});
