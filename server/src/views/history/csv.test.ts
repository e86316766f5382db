import { describe, expect, it } from 'vitest';
import { csvField, csvLine, csvRows } from './csv';

describe('csv', () => {
  it('quotes fields with commas, quotes or line breaks and doubles the quotes', () => {
    expect(csvField('BTCUSDT')).toBe('BTCUSDT');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvLine(['x', 1, true, ''])).toBe('x,1,true,\r\n');
  });

  it('writes the header, then every page until a short one', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ n: i }));
    const asked: number[] = [];
    const out: string[] = [];
    for await (const chunk of csvRows(
      [{ header: 'n', value: (r: { n: number }) => r.n }],
      async (o, l) => {
        asked.push(o);
        return rows.slice(o, o + l);
      },
      2,
    ))
      out.push(chunk);
    expect(out.join('')).toBe('n\r\n0\r\n1\r\n2\r\n3\r\n4\r\n');
    expect(asked).toEqual([0, 2, 4]);
  });
});
