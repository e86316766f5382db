import { describe, expect, it } from 'vitest';
import { countdownText, hoursText, reasonLabel } from './agent-words';

describe("the agent page's words", () => {
  it('words known reason codes and shows an unknown one as itself', () => {
    expect(reasonLabel('edge_below_costs')).toBe('Edge below costs');
    expect(reasonLabel('some_new_code')).toBe('some new code');
  });

  it('says ages in minutes, hours or days, and a time limit as it runs out', () => {
    expect(hoursText(0.25)).toBe('15 min');
    expect(hoursText(3.24)).toBe('3.2 h');
    expect(hoursText(30)).toBe('30 h');
    expect(hoursText(48)).toBe('48 h');
    expect(hoursText(100)).toBe('4 d 4 h');
    expect(hoursText(null)).toBe('—');
    expect(countdownText(125_000)).toBe('2:05');
    expect(countdownText(3_900_000)).toBe('1 h 05 min');
    expect(countdownText(0)).toBe('expired');
  });
});
