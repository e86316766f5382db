import { Decimal } from 'decimal.js';

/** One notional bracket as `GET /fapi/v1/leverageBracket` returns it */
export interface Bracket {
  bracket: number;
  initialLeverage: number;
  notionalCap: number;
  notionalFloor: number;
  maintMarginRatio: number;
  cum: number;
}

/** Everything the simulator knows about one perpetual contract */
export interface SymbolSpec {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  marginAsset: string;
  pricePrecision: number;
  quantityPrecision: number;
  tickSize: string;
  minPrice: string;
  maxPrice: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  marketStepSize: string;
  marketMinQty: string;
  marketMaxQty: string;
  minNotional: string;
  multiplierUp: string;
  multiplierDown: string;
  liquidationFee: string;
  marketTakeBound: string;
  onboardDate: number;
  /** Price at the start of the generated history */
  startPrice: number;
  /** Typical traded base quantity per minute */
  baseVolumePerMinute: number;
  brackets: Bracket[];
}

/**
 * Builds brackets from (initialLeverage, notionalCap, maintMarginRatio) rows, computing `cum` with Binance's rule
 * cumₙ = floorₙ × (mmrₙ − mmrₙ₋₁) + cumₙ₋₁ so the table can never disagree with the formula
 */
export function buildBrackets(rows: ReadonlyArray<readonly [number, number, number]>): Bracket[] {
  const out: Bracket[] = [];
  let floor = 0;
  let prevMmr = 0;
  let cum = new Decimal(0);
  rows.forEach(([initialLeverage, notionalCap, maintMarginRatio], i) => {
    cum = new Decimal(floor).mul(new Decimal(maintMarginRatio).minus(prevMmr)).plus(cum);
    out.push({
      bracket: i + 1,
      initialLeverage,
      notionalCap,
      notionalFloor: floor,
      maintMarginRatio,
      cum: cum.toNumber(),
    });
    floor = notionalCap;
    prevMmr = maintMarginRatio;
  });
  return out;
}

// Shapes copied from Binance's published tables for these contracts (rounded); cum is derived, not typed in
const BTC_BRACKETS = buildBrackets([
  [125, 50_000, 0.004],
  [100, 600_000, 0.005],
  [75, 3_000_000, 0.0065],
  [50, 12_000_000, 0.01],
  [25, 70_000_000, 0.02],
  [20, 100_000_000, 0.025],
  [10, 230_000_000, 0.05],
  [5, 480_000_000, 0.1],
  [4, 600_000_000, 0.125],
  [3, 800_000_000, 0.15],
  [2, 1_200_000_000, 0.25],
  [1, 1_800_000_000, 0.5],
]);

const ALT_BRACKETS = buildBrackets([
  [75, 5_000, 0.01],
  [50, 50_000, 0.015],
  [25, 250_000, 0.02],
  [20, 1_000_000, 0.025],
  [10, 2_000_000, 0.05],
  [5, 5_000_000, 0.1],
  [4, 10_000_000, 0.125],
  [3, 20_000_000, 0.15],
  [2, 50_000_000, 0.25],
  [1, 100_000_000, 0.5],
]);

const common = {
  quoteAsset: 'USDT',
  marginAsset: 'USDT',
  multiplierUp: '1.0500',
  multiplierDown: '0.9500',
  marketTakeBound: '0.05',
} as const;

/** Contracts the simulator can list; `--symbols` picks among them */
export const KNOWN_SYMBOLS: readonly SymbolSpec[] = [
  {
    ...common,
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    pricePrecision: 2,
    quantityPrecision: 3,
    tickSize: '0.10',
    minPrice: '261.10',
    maxPrice: '809484',
    stepSize: '0.001',
    minQty: '0.001',
    maxQty: '1000',
    marketStepSize: '0.001',
    marketMinQty: '0.001',
    marketMaxQty: '120',
    minNotional: '100',
    liquidationFee: '0.012500',
    onboardDate: 1569398400000,
    startPrice: 65000,
    baseVolumePerMinute: 120,
    brackets: BTC_BRACKETS,
  },
  {
    ...common,
    symbol: 'ETHUSDT',
    baseAsset: 'ETH',
    pricePrecision: 2,
    quantityPrecision: 3,
    tickSize: '0.01',
    minPrice: '39.86',
    maxPrice: '306177',
    stepSize: '0.001',
    minQty: '0.001',
    maxQty: '10000',
    marketStepSize: '0.001',
    marketMinQty: '0.001',
    marketMaxQty: '2000',
    minNotional: '20',
    liquidationFee: '0.012500',
    onboardDate: 1569398400000,
    startPrice: 3200,
    baseVolumePerMinute: 1500,
    brackets: BTC_BRACKETS,
  },
  {
    ...common,
    symbol: 'SOLUSDT',
    baseAsset: 'SOL',
    pricePrecision: 4,
    quantityPrecision: 0,
    tickSize: '0.0100',
    minPrice: '0.4200',
    maxPrice: '6857',
    stepSize: '1',
    minQty: '1',
    maxQty: '1000000',
    marketStepSize: '1',
    marketMinQty: '1',
    marketMaxQty: '5000',
    minNotional: '5',
    liquidationFee: '0.015000',
    onboardDate: 1569398400000,
    startPrice: 150,
    baseVolumePerMinute: 9000,
    brackets: ALT_BRACKETS,
  },
  {
    ...common,
    symbol: 'BNBUSDT',
    baseAsset: 'BNB',
    pricePrecision: 3,
    quantityPrecision: 2,
    tickSize: '0.010',
    minPrice: '6.600',
    maxPrice: '100000',
    stepSize: '0.01',
    minQty: '0.01',
    maxQty: '100000',
    marketStepSize: '0.01',
    marketMinQty: '0.01',
    marketMaxQty: '2000',
    minNotional: '5',
    liquidationFee: '0.010000',
    onboardDate: 1569398400000,
    startPrice: 580,
    baseVolumePerMinute: 700,
    brackets: ALT_BRACKETS,
  },
  {
    ...common,
    symbol: 'XRPUSDT',
    baseAsset: 'XRP',
    pricePrecision: 4,
    quantityPrecision: 1,
    tickSize: '0.0001',
    minPrice: '0.0143',
    maxPrice: '100000',
    stepSize: '0.1',
    minQty: '0.1',
    maxQty: '10000000',
    marketStepSize: '0.1',
    marketMinQty: '0.1',
    marketMaxQty: '2000000',
    minNotional: '5',
    liquidationFee: '0.012500',
    onboardDate: 1569398400000,
    startPrice: 0.55,
    baseVolumePerMinute: 400000,
    brackets: ALT_BRACKETS,
  },
];

export const DEFAULT_SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] as const;

/** Resolves symbol names to specs, failing with the list of what exists */
export function resolveSymbols(names: readonly string[]): SymbolSpec[] {
  return names.map((raw) => {
    const name = raw.trim().toUpperCase();
    const spec = KNOWN_SYMBOLS.find((s) => s.symbol === name);
    if (!spec) {
      throw new Error(
        `Unknown symbol "${raw}". The simulator lists: ${KNOWN_SYMBOLS.map((s) => s.symbol).join(', ')}`,
      );
    }
    return spec;
  });
}

/** The bracket a position of this notional falls into (floor < notional ≤ cap) */
export function bracketFor(brackets: readonly Bracket[], notional: Decimal.Value): Bracket {
  const n = new Decimal(notional).abs();
  for (const b of brackets) if (n.lte(b.notionalCap)) return b;
  const last = brackets[brackets.length - 1];
  if (!last) throw new Error('A symbol needs at least one bracket');
  return last;
}

/** Highest leverage a symbol allows (the first bracket's) */
export function maxLeverage(spec: SymbolSpec): number {
  return spec.brackets[0]?.initialLeverage ?? 1;
}

/** Cap on notional at a given leverage: the largest bracket cap whose initial leverage still allows it */
export function maxNotionalAtLeverage(spec: SymbolSpec, leverage: number): number {
  let cap = 0;
  for (const b of spec.brackets) if (b.initialLeverage >= leverage) cap = b.notionalCap;
  return cap;
}
