import { cn, formatPercent, formatPrice, formatQuantity, toneClassName, toneOf } from '@kestrel/ui';
import {
  CandlestickSeries,
  ChartCanvas,
  type ChartConfig,
  ChartContainer,
  candleColors,
  createSeriesMarkers,
  HistogramSeries,
  type IChartApi,
  type SeriesMarker,
  type Time,
  withAlpha,
} from '@kestrel/ui/chart';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Candle } from '../lib/candles';
import type { FillMarker, PriceLine } from '../lib/overlays';

const config = {
  up: { label: 'Rising candle, buy', color: 'var(--success)' },
  down: { label: 'Falling candle, sell', color: 'var(--destructive)' },
  entry: { label: 'Entry price', color: 'var(--primary)' },
  liquidation: { label: 'Liquidation price', color: 'var(--warning)' },
} satisfies ChartConfig;
type Colors = Record<keyof typeof config, string>;

/** Words on a few markers help; on many they only cover the candles (arrows and colours still tell them apart) */
const MAX_LABELLED_MARKERS = 20;

type Series = ReturnType<IChartApi['addSeries']>;
type Markers = ReturnType<typeof createSeriesMarkers<Time>>;

const toTime = (ms: number) => Math.floor(ms / 1000) as Time;
const bar = (c: Candle) => ({
  time: toTime(c.openTime),
  open: c.open,
  high: c.high,
  low: c.low,
  close: c.close,
});

/** A bar's volume, tinted by its direction and faint, so it reads under the candles without covering them */
const volumeBar = (c: Candle, colors: Colors) => ({
  time: toTime(c.openTime),
  value: c.volume,
  color: withAlpha(c.close >= c.open ? colors.up : colors.down, 0.35),
});

function lineColor(line: PriceLine, colors: Colors): string {
  if (line.kind === 'entry') return colors.entry;
  if (line.kind === 'liquidation') return colors.liquidation;
  return line.kind === 'buy' ? colors.up : colors.down;
}

function toMarkers(fills: readonly FillMarker[], colors: Colors): SeriesMarker<Time>[] {
  const labelled = fills.length <= MAX_LABELLED_MARKERS;
  return fills.map((f) => ({
    time: toTime(f.time),
    position: f.side === 'BUY' ? 'belowBar' : 'aboveBar',
    shape: f.side === 'BUY' ? 'arrowUp' : 'arrowDown',
    color: f.side === 'BUY' ? colors.up : colors.down,
    ...(labelled ? { text: `${f.side === 'BUY' ? 'Buy' : 'Sell'} ${formatQuantity(f.quantity)}` } : {}),
  }));
}

export interface PriceChartProps {
  /** The caption, e.g. "BTCUSDT · 1h" (the figure's name) */
  title: string;
  candles: readonly Candle[];
  /** Decimals of the symbol's prices (from its tick size); unknown: by magnitude */
  pricePrecision: number | undefined;
  lines: readonly PriceLine[];
  fills: readonly FillMarker[];
  height: number;
  /** A narrow screen: order lines show only their price on the axis, so the labels leave the candles visible */
  compact?: boolean;
}

/**
 * The candle chart with the position's entry and liquidation lines, open orders as lines and the user's fills as
 * arrows. The chart is built once per symbol and theme; new bars, lines and markers are applied to it in place, so
 * a live price moves the last candle without redrawing the rest or losing the trader's zoom.
 */
export default function PriceChart({
  title,
  candles,
  pricePrecision,
  lines,
  fills,
  height,
  compact = false,
}: PriceChartProps) {
  const [hovered, setHovered] = useState<Candle | null>(null);
  const latest = useRef({ candles, lines, fills });
  latest.current = { candles, lines, fills };
  const parts = useRef<{
    series: Series;
    volume: Series;
    markers: Markers;
    colors: Colors;
    drawn: ReturnType<Series['createPriceLine']>[];
    bars: readonly Candle[];
  } | null>(null);

  const drawLines = useCallback(
    (wanted: readonly PriceLine[]) => {
      const p = parts.current;
      if (!p) return;
      for (const line of p.drawn) p.series.removePriceLine(line);
      p.drawn = wanted.map((line) =>
        p.series.createPriceLine({
          price: line.price,
          title: compact && (line.kind === 'buy' || line.kind === 'sell') ? '' : line.title,
          color: lineColor(line, p.colors),
          lineWidth: 1,
          // Solid for the position, dashed for orders that may never fill
          lineStyle: line.kind === 'entry' || line.kind === 'liquidation' ? 0 : 2,
          axisLabelVisible: true,
        }),
      );
    },
    [compact],
  );

  const build = useCallback(
    (chart: IChartApi, { colors }: { colors: Colors }) => {
      const minMove = pricePrecision === undefined ? 0.0001 : 10 ** -pricePrecision;
      const series = chart.addSeries(CandlestickSeries, {
        ...candleColors(colors),
        priceFormat: {
          type: 'custom',
          formatter: (v: number) => formatPrice(v, { precision: pricePrecision }),
          minMove,
        },
      });
      // Volume in the bottom fifth, on its own scale
      const volume = chart.addSeries(HistogramSeries, {
        priceScaleId: 'volume',
        priceFormat: { type: 'volume' },
        lastValueVisible: false,
        priceLineVisible: false,
      });
      chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
      const bars = latest.current.candles;
      series.setData(bars.map(bar));
      volume.setData(bars.map((c) => volumeBar(c, colors)));
      const markers = createSeriesMarkers(series, toMarkers(latest.current.fills, colors));
      chart.subscribeCrosshairMove((param) => {
        const time = typeof param.time === 'number' ? param.time * 1000 : undefined;
        setHovered(
          time === undefined ? null : (latest.current.candles.find((c) => c.openTime === time) ?? null),
        );
      });
      parts.current = { series, volume, markers, colors, drawn: [], bars };
      drawLines(latest.current.lines);
    },
    [pricePrecision, drawLines],
  );

  // New bars: the forming bar alone is updated in place; anything else replaces the data
  useEffect(() => {
    const p = parts.current;
    if (!p || p.bars === candles) return;
    const last = candles[candles.length - 1];
    const sameBars =
      p.bars.length === candles.length &&
      p.bars[0]?.openTime === candles[0]?.openTime &&
      p.bars[p.bars.length - 1]?.openTime === last?.openTime;
    if (sameBars && last) {
      p.series.update(bar(last));
      p.volume.update(volumeBar(last, p.colors));
    } else {
      p.series.setData(candles.map(bar));
      p.volume.setData(candles.map((c) => volumeBar(c, p.colors)));
    }
    p.bars = candles;
  }, [candles]);

  useEffect(() => {
    drawLines(lines);
  }, [lines, drawLines]);

  useEffect(() => {
    const p = parts.current;
    if (p) p.markers.setMarkers(toMarkers(fills, p.colors));
  }, [fills]);

  const last = candles[candles.length - 1];
  const description =
    `${candles.length} candles, last close ${formatPrice(last?.close, { precision: pricePrecision })}` +
    (lines.length
      ? `; lines: ${lines.map((l) => `${l.title} at ${formatPrice(l.price, { precision: pricePrecision })}`).join(', ')}`
      : '') +
    (fills.length
      ? `; ${fills.length} of your fills marked (${fills
          .slice(-3)
          .map((f) => `${f.side === 'BUY' ? 'bought' : 'sold'} ${formatQuantity(f.quantity)}`)
          .join(', ')})`
      : '');
  return (
    <ChartContainer config={config} title={title} description={description} data-candles={candles.length}>
      <BarLegend candle={hovered ?? last} pricePrecision={pricePrecision} />
      <ChartCanvas<typeof config> data-chart="price" height={height} build={build} />
    </ChartContainer>
  );
}

/** Open, high, low, close, change and volume of the bar under the crosshair, else of the forming bar */
function BarLegend({
  candle,
  pricePrecision,
}: {
  candle: Candle | undefined;
  pricePrecision: number | undefined;
}) {
  if (!candle) return null;
  const price = (v: number) => formatPrice(v, { precision: pricePrecision });
  const change = candle.open === 0 ? undefined : (candle.close - candle.open) / candle.open;
  const tone = toneClassName(toneOf(change, { digits: 4 }));
  return (
    <p className="db:flex db:flex-wrap db:gap-x-3 db:font-mono db:text-xs db:tabular-nums db:text-muted-foreground">
      {(
        [
          ['O', price(candle.open)],
          ['H', price(candle.high)],
          ['L', price(candle.low)],
          ['C', price(candle.close)],
        ] as const
      ).map(([label, value]) => (
        <span key={label}>
          {label} <span className={cn('db:text-foreground', tone)}>{value}</span>
        </span>
      ))}
      <span className={tone}>{formatPercent(change, { signed: true })}</span>
      <span>
        Vol <span className="db:text-foreground">{formatQuantity(candle.volume)}</span>
      </span>
    </p>
  );
}
