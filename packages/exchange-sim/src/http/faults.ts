/** What an injected fault does to a matching request */
export type FaultKind = 'latency' | 'error' | 'timeout' | 'drop';

export interface FaultRule {
  id: number;
  kind: FaultKind;
  /** Only this HTTP method (any when absent) */
  method?: string;
  /** Only paths starting with this (any when absent) */
  path?: string;
  /**
   * Only requests sent with this API key (`X-MBX-APIKEY`; any when absent): a test that breaks its own account's
   * calls leaves the other tests sharing the simulator alone
   */
  apiKey?: string;
  /**
   * `before`: the request never reaches the exchange. `after`: the exchange executes it, then the reply is delayed,
   * replaced or lost: the case where a client cannot know whether its order exists
   */
  phase: 'before' | 'after';
  /** Delay for `latency` */
  ms: number;
  /** HTTP status for `error` (500, 502, 503, 504) */
  status: number;
  /**
   * With status 503: `-1007` (default, "execution status unknown") or `-1008` (server overloaded, nothing executed)
   */
  code?: -1007 | -1008;
  /** How many more requests it applies to; unlimited when absent */
  remaining?: number;
}

export type FaultInput = Partial<Omit<FaultRule, 'id'>> & { kind: FaultKind };

const KINDS: readonly FaultKind[] = ['latency', 'error', 'timeout', 'drop'];

/** Rules injected through the admin API, checked in the order they were added */
export class Faults {
  #rules: FaultRule[] = [];
  #nextId = 1;

  add(input: FaultInput): FaultRule {
    if (!KINDS.includes(input.kind)) throw new Error(`kind must be one of ${KINDS.join(', ')}`);
    const phase = input.phase ?? 'before';
    if (phase !== 'before' && phase !== 'after') throw new Error('phase must be "before" or "after"');
    const status = input.status ?? 503;
    if (!Number.isInteger(status) || status < 500 || status > 599)
      throw new Error('status must be a 5xx code');
    const ms = input.ms ?? 0;
    if (!(ms >= 0 && ms <= 600_000)) throw new Error('ms must be between 0 and 600000');
    if (input.kind === 'latency' && ms === 0) throw new Error('a latency fault needs ms > 0');
    if (input.remaining !== undefined && !(Number.isInteger(input.remaining) && input.remaining > 0)) {
      throw new Error('remaining must be a positive integer');
    }
    if (input.path !== undefined && !input.path.startsWith('/')) throw new Error('path must start with "/"');
    if (input.apiKey !== undefined && (typeof input.apiKey !== 'string' || input.apiKey === '')) {
      throw new Error('apiKey must be a non-empty string');
    }
    if (input.code !== undefined && (status !== 503 || (input.code !== -1007 && input.code !== -1008))) {
      throw new Error('code must be -1007 or -1008, with status 503');
    }
    const rule: FaultRule = {
      id: this.#nextId++,
      kind: input.kind,
      method: input.method?.toUpperCase(),
      path: input.path,
      apiKey: input.apiKey,
      phase,
      ms,
      status,
      code: input.code,
      remaining: input.remaining,
    };
    this.#rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.#rules.map((r) => ({ ...r }));
  }

  remove(id: number): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((r) => r.id !== id);
    return this.#rules.length < before;
  }

  clear(): void {
    this.#rules = [];
  }

  /** Takes the rules that apply to this request and phase, using up counted ones */
  take(method: string, path: string, phase: 'before' | 'after', apiKey?: string): FaultRule[] {
    const hits = this.#rules.filter(
      (r) =>
        r.phase === phase &&
        (!r.method || r.method === method) &&
        (!r.path || path.startsWith(r.path)) &&
        (!r.apiKey || r.apiKey === apiKey),
    );
    for (const r of hits) if (r.remaining !== undefined) r.remaining -= 1;
    this.#rules = this.#rules.filter((r) => r.remaining === undefined || r.remaining > 0);
    return hits;
  }
}
