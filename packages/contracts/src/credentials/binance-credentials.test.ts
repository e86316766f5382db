import { describe, expect, it } from 'vitest';
import { CreateBinanceCredentialsSchema, TestConnectionRequestSchema } from './binance-credentials';

describe('CreateBinanceCredentialsSchema (spec §3 credentials payload)', () => {
  it('defaults the region to global and trims pasted keys', () => {
    expect(CreateBinanceCredentialsSchema.parse({ api_key: ' key\n', secret_key: '\tsecret ' })).toEqual({
      api_key: 'key',
      secret_key: 'secret',
      region: 'global',
    });
  });

  it('says which key is missing, in the words of the form', () => {
    const result = CreateBinanceCredentialsSchema.safeParse({ api_key: '  ', secret_key: '' });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'API Key is required',
      'Secret Key is required',
    ]);
  });

  it('knows only the global region', () => {
    const result = CreateBinanceCredentialsSchema.safeParse({ api_key: 'k', secret_key: 's', region: 'us' });
    expect(result.error?.issues[0]?.message).toBe('region must be "global"');
  });

  it('bounds each key at 512 characters', () => {
    const result = CreateBinanceCredentialsSchema.safeParse({ api_key: 'k'.repeat(513), secret_key: 's' });
    expect(result.error?.issues[0]?.message).toBe('api_key must be at most 512 characters');
  });
});

describe('TestConnectionRequestSchema', () => {
  it('takes no body (test the stored keys) or new keys to test', () => {
    expect(TestConnectionRequestSchema.parse(undefined)).toBeUndefined();
    expect(TestConnectionRequestSchema.parse(null)).toBeNull();
    expect(TestConnectionRequestSchema.parse({ api_key: 'k', secret_key: 's' })?.region).toBe('global');
  });
});
