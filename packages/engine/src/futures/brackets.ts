import { EngineInputError } from '../errors';
import { roundMoney } from '../math/rounding';

/** One leverage bracket as `GET /fapi/v1/leverageBracket` returns it, with `cum` (maintenance amount) */
export interface LeverageBracket {
  bracket: number;
  initialLeverage: number;
  notionalFloor: number;
  notionalCap: number;
  maintMarginRatio: number;
  cum: number;
}

export type BracketInput = Omit<LeverageBracket, 'cum' | 'bracket'>;

/**
 * Builds brackets sorted by floor, computing `cum` with Binance's recurrence
 * cumₙ = floorₙ × (mmrₙ − mmrₙ₋₁) + cumₙ₋₁ (so MM is continuous across brackets).
 */
export function buildBrackets(rows: readonly BracketInput[]): LeverageBracket[] {
  if (rows.length === 0) throw new EngineInputError('brackets must not be empty');
  const sorted = [...rows].sort((a, b) => a.notionalFloor - b.notionalFloor);
  const out: LeverageBracket[] = [];
  sorted.forEach((r, i) => {
    const prev = out[i - 1];
    if (!(r.maintMarginRatio > 0 && r.maintMarginRatio < 1)) {
      throw new EngineInputError(
        `bracket ${i + 1} maintMarginRatio must be in (0, 1), got ${r.maintMarginRatio}`,
      );
    }
    if (!(r.notionalCap > r.notionalFloor))
      throw new EngineInputError(`bracket ${i + 1} notionalCap must exceed its floor`);
    // Rounded to 8 decimals: the exchange's cum is an exact decimal, float64 subtraction of ratios is not
    const cum = prev
      ? roundMoney(r.notionalFloor * (r.maintMarginRatio - prev.maintMarginRatio) + prev.cum)
      : 0;
    out.push({ ...r, bracket: i + 1, cum });
  });
  return out;
}

/**
 * BTCUSDT's long-standing bracket table, used as the default. Real tables change: load the symbol's current one
 * from `GET /fapi/v1/leverageBracket` with `parseLeverageBrackets`.
 */
export const BTCUSDT_BRACKETS: readonly LeverageBracket[] = buildBrackets([
  { initialLeverage: 125, notionalFloor: 0, notionalCap: 50_000, maintMarginRatio: 0.004 },
  { initialLeverage: 100, notionalFloor: 50_000, notionalCap: 250_000, maintMarginRatio: 0.005 },
  { initialLeverage: 50, notionalFloor: 250_000, notionalCap: 3_000_000, maintMarginRatio: 0.01 },
  { initialLeverage: 20, notionalFloor: 3_000_000, notionalCap: 15_000_000, maintMarginRatio: 0.025 },
  { initialLeverage: 10, notionalFloor: 15_000_000, notionalCap: 30_000_000, maintMarginRatio: 0.05 },
  { initialLeverage: 5, notionalFloor: 30_000_000, notionalCap: 80_000_000, maintMarginRatio: 0.1 },
  { initialLeverage: 4, notionalFloor: 80_000_000, notionalCap: 100_000_000, maintMarginRatio: 0.125 },
  { initialLeverage: 3, notionalFloor: 100_000_000, notionalCap: 200_000_000, maintMarginRatio: 0.15 },
  { initialLeverage: 2, notionalFloor: 200_000_000, notionalCap: 300_000_000, maintMarginRatio: 0.25 },
  { initialLeverage: 1, notionalFloor: 300_000_000, notionalCap: 500_000_000, maintMarginRatio: 0.5 },
]);

/** Reads a `/fapi/v1/leverageBracket` reply (array of symbols, or one object) for one symbol */
export function parseLeverageBrackets(reply: unknown, symbol: string): LeverageBracket[] {
  const list = Array.isArray(reply) ? reply : [reply];
  const entry = list.find(
    (e): e is { symbol: string; brackets: unknown } =>
      typeof e === 'object' && e !== null && (e as { symbol?: unknown }).symbol === symbol,
  );
  if (!entry || !Array.isArray(entry.brackets))
    throw new EngineInputError(`no leverage brackets for ${symbol}`);
  return buildBrackets(
    entry.brackets.map((b: Record<string, unknown>, i: number) => {
      const num = (k: string) => {
        const v = Number(b[k]);
        if (!Number.isFinite(v)) throw new EngineInputError(`bracket ${i + 1} ${k} must be a number`);
        return v;
      };
      return {
        initialLeverage: num('initialLeverage'),
        notionalFloor: num('notionalFloor'),
        notionalCap: num('notionalCap'),
        maintMarginRatio: num('maintMarginRatio'),
      };
    }),
  );
}

/** The bracket where floor < notional ≤ cap (the first for 0, the last beyond the table) */
export function bracketFor(brackets: readonly LeverageBracket[], notional: number): LeverageBracket {
  for (const b of brackets) if (notional <= b.notionalCap) return b;
  return brackets[brackets.length - 1] as LeverageBracket;
}

/** Maintenance margin of a position: notional × mmr − cum */
export function maintenanceMargin(brackets: readonly LeverageBracket[], notional: number): number {
  const b = bracketFor(brackets, notional);
  return notional * b.maintMarginRatio - b.cum;
}

/** Largest notional allowed at `leverage` (the cap of the last bracket that still allows it) */
export function maxNotionalAt(brackets: readonly LeverageBracket[], leverage: number): number {
  let cap = 0;
  for (const b of brackets) if (b.initialLeverage >= leverage) cap = b.notionalCap;
  return cap;
}
