import type { ExchangeId } from '@kestrel/contracts';

/** Exchange catalogue entry (spec §3) */
export interface ExchangeCatalogueEntry {
  id: ExchangeId;
  name: string;
  displayName: string;
  /** URL of a logo, or null: the card then shows the name's initial */
  logo: string | null;
  description: string;
  isAvailable: boolean;
  comingSoon: boolean;
  features: readonly string[];
}

const FEATURES = ['Spot Trading', 'Futures Trading', 'Real-time Data', 'Advanced Orders'] as const;

/** Spec §1 and §3: only binance can be connected; coinbase (shown as Coinbase Pro), kraken and bybit are coming soon */
export const EXCHANGE_CATALOGUE: readonly ExchangeCatalogueEntry[] = [
  {
    id: 'binance',
    name: 'Binance',
    displayName: 'Binance',
    logo: null,
    description: "The world's largest crypto exchange by volume, with USDⓈ-M perpetual futures",
    isAvailable: true,
    comingSoon: false,
    features: FEATURES,
  },
  {
    id: 'coinbase',
    name: 'Coinbase',
    displayName: 'Coinbase Pro',
    logo: null,
    description: 'Advanced trading on Coinbase',
    isAvailable: false,
    comingSoon: true,
    features: FEATURES,
  },
  {
    id: 'kraken',
    name: 'Kraken',
    displayName: 'Kraken',
    logo: null,
    description: 'Long-running exchange with spot and futures markets',
    isAvailable: false,
    comingSoon: true,
    features: FEATURES,
  },
  {
    id: 'bybit',
    name: 'Bybit',
    displayName: 'Bybit',
    logo: null,
    description: 'Derivatives exchange with perpetual contracts',
    isAvailable: false,
    comingSoon: true,
    features: FEATURES,
  },
];

export function findExchange(id: string): ExchangeCatalogueEntry | undefined {
  return EXCHANGE_CATALOGUE.find((e) => e.id === id);
}
