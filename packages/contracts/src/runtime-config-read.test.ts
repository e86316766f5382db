import { describe, expect, it } from 'vitest';
import { RuntimeConfigSchema } from './runtime-config';
import { readRuntimeConfig } from './runtime-config-read';

const remotes = {
  dashboard: 'http://127.0.0.1:3001/mf-manifest.json',
  bots: 'http://127.0.0.1:3002/mf-manifest.json',
  exchange_connect: 'http://127.0.0.1:3003/mf-manifest.json',
  account: 'http://127.0.0.1:3004/mf-manifest.json',
};
const valid = { apiBaseUrl: 'http://127.0.0.1:8000', socketBaseUrl: 'ws://127.0.0.1:8000/ws', remotes };

// Each case is read by both: the hand-written reader the browser starts with and the zod schema the rest uses
const cases: Array<[string, unknown]> = [
  ['the minimum', valid],
  [
    'every field',
    { ...valid, sharedRuntimeRanges: { bots: '^0.2.0', account: '0.2.1' }, remoteLoadTimeoutMs: 5 },
  ],
  [
    'padded URLs',
    { ...valid, apiBaseUrl: '  https://api.example.com/base  ', socketBaseUrl: ' wss://x.example/ws' },
  ],
  ['a line feed inside a URL', { ...valid, apiBaseUrl: 'https://exa\nmple.com' }],
  ['any scheme for the API', { ...valid, apiBaseUrl: 'ws://127.0.0.1:8000' }],
  ['an https socket URL', { ...valid, socketBaseUrl: 'https://127.0.0.1:8000/ws' }],
  ['no socket URL', { apiBaseUrl: valid.apiBaseUrl, remotes }],
  ['an unparseable API URL', { ...valid, apiBaseUrl: 'not a url' }],
  ['an API URL that is a number', { ...valid, apiBaseUrl: 8000 }],
  ['an unknown field', { ...valid, extra: 1 }],
  ['a remote missing', { ...valid, remotes: { ...remotes, account: undefined } }],
  ['an unknown remote', { ...valid, remotes: { ...remotes, charts: 'http://x/mf-manifest.json' } }],
  ['a remote with no URL', { ...valid, remotes: { ...remotes, bots: '' } }],
  ['remotes as a list', { ...valid, remotes: Object.values(remotes) }],
  ['a range with no version', { ...valid, sharedRuntimeRanges: { bots: '^0.2' } }],
  ['a range of an unknown remote', { ...valid, sharedRuntimeRanges: { charts: '^0.2.0' } }],
  ['a range that is a number', { ...valid, sharedRuntimeRanges: { bots: 2 } }],
  ['ranges as null', { ...valid, sharedRuntimeRanges: null }],
  ['a zero timeout', { ...valid, remoteLoadTimeoutMs: 0 }],
  ['a negative timeout', { ...valid, remoteLoadTimeoutMs: -1 }],
  ['a fractional timeout', { ...valid, remoteLoadTimeoutMs: 1.5 }],
  ['a timeout past safe integers', { ...valid, remoteLoadTimeoutMs: 2 ** 53 }],
  ['a timeout as text', { ...valid, remoteLoadTimeoutMs: '100' }],
  ['a null timeout', { ...valid, remoteLoadTimeoutMs: null }],
  ['null', null],
  ['a list', [valid]],
  ['text', 'config'],
];

describe('readRuntimeConfig (config.json without zod)', () => {
  it.each(cases)('agrees with RuntimeConfigSchema on %s', (_, input) => {
    const byHand = readRuntimeConfig(input);
    const byZod = RuntimeConfigSchema.safeParse(input);
    expect(byHand.success).toBe(byZod.success);
    if (byHand.success && byZod.success) expect(byHand.data).toEqual(byZod.data);
  });

  it('names each broken rule by its path', () => {
    const reading = readRuntimeConfig({
      ...valid,
      socketBaseUrl: 'http://x',
      remotes: { ...remotes, account: undefined },
      extra: 1,
      remoteLoadTimeoutMs: 0,
    });
    expect(reading.success).toBe(false);
    if (reading.success) return;
    expect(reading.issues).toEqual([
      'extra: unrecognized key',
      'socketBaseUrl: expected a ws:// or wss:// URL',
      'remotes.account: expected a URL',
      'remoteLoadTimeoutMs: expected a positive whole number of milliseconds',
    ]);
  });
});
