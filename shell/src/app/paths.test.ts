import { describe, expect, it } from 'vitest';
import { pageAt } from './paths';

describe('pageAt: the signed-in page a deep link opens (its code is loaded from the start)', () => {
  it('matches a page, with or without a trailing slash', () => {
    expect(pageAt('/dashboard')?.module).toBe('./DashboardPage');
    expect(pageAt('/dashboard/')?.module).toBe('./DashboardPage');
  });

  it('matches a :param segment with any one segment, and nothing for public or unknown paths', () => {
    const param = pageAt('/kestrel/agent-42');
    expect(param?.path).toContain(':');
    expect(pageAt('/kestrel/agent-42/more')).toBeUndefined();
    expect(pageAt('/')).toBeUndefined();
    expect(pageAt('/onboarding')).toBeUndefined();
    expect(pageAt('/no-such-page')).toBeUndefined();
  });
});
