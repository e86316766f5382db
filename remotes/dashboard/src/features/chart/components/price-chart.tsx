import { Button, cn, formatPercent, formatPrice, formatQuantity, toneClassName, toneOf } from '@kestrel/ui';
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
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { markPainted, PAINT_MARKS } from '../../../lib/paint-marks';
import type { Candle } from '../lib/candles';
import { type FillMarker, labelGutter, type PriceLine } from '../lib/overlays';
import { type Drag, type DragTarget, type LineMove, type MovedLine, useLineDrag } from './use-line-drag';

export type { LineMove, MovedLine } from './use-line-drag';

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
/** The chart library's autoscale answer (the shape its `autoscaleInfoProvider` takes and gives) */
interface AutoscaleInfo {
  priceRange: { minValue: number; maxValue: number } | null;
  margins?: { above: number; below: number };
}
type Markers = ReturnType<typeof createSeriesMarkers<Time>>;
type DrawnLine = ReturnType<Series['createPriceLine']>;
type Primitive = Parameters<Series['attachPrimitive']>[0];

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

/** The chart library's text size (its default: the titles are drawn in it) */
const CHART_FONT_PX = 12;
let measuring: CanvasRenderingContext2D | null | undefined;
/** A title's width in the chart's font; by characters where there is no canvas to measure with */
function titleWidth(text: string, fontFamily: string): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return text.length * CHART_FONT_PX * 0.62;
  measuring.font = `${CHART_FONT_PX}px ${fontFamily}`;
  return measuring.measureText(text).width;
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
  /** A narrow screen: the lines start with only their price on the axis (titles on demand), so the candles stay in view */
  compact?: boolean;
  /** The symbol's tick: a dragged line snaps to it. Unknown (rules still loading): nothing can be dragged */
  tickSize?: string | undefined;
  /**
   * A movable line (`PriceLine.movable`) was dropped at a new price: answer true once the confirmation is shown
   * (the line then stays there, see `pendingMove`), false to put it back. Absent: no line can be dragged
   */
  onMove?: ((move: LineMove) => boolean) | undefined;
  /** The move being confirmed: that line is drawn at the new price until this is cleared */
  pendingMove?: MovedLine | null | undefined;
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
  tickSize,
  onMove,
  pendingMove = null,
}: PriceChartProps) {
  const [hovered, setHovered] = useState<Candle | null>(null);
  // The trader's choice, else titles on a wide chart and off on a narrow one
  const [titlesChosen, setTitlesChosen] = useState<boolean | null>(null);
  const titlesShown = titlesChosen ?? !compact;
  const draggable = onMove !== undefined && tickSize !== undefined;
  const latest = useRef({ candles, lines, fills, pendingMove, onMove, tickSize, draggable });
  latest.current = { candles, lines, fills, pendingMove, onMove, tickSize, draggable };
  const parts = useRef<{
    chart: IChartApi;
    series: Series;
    volume: Series;
    markers: Markers;
    colors: Colors;
    drawn: DrawnLine[];
    /** The movable lines as drawn, by order id, at the price each is drawn at */
    movable: Map<string, DragTarget>;
    bars: readonly Candle[];
  } | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const grips = useRef(new Map<string, HTMLElement>());
  const drag = useRef<Drag | null>(null);

  /**
   * The position's take-profit and stop-loss stay in view, as the trader set them (not as dragged: the scale does
   * not move under the pointer), so they can be seen and taken; other lines may lie off the chart
   */
  const keepHeldInView = useCallback((original: () => AutoscaleInfo | null): AutoscaleInfo | null => {
    const info = original();
    const held = latest.current.lines.filter((l) => l.movable).map((l) => l.price);
    if (!info?.priceRange || held.length === 0) return info;
    const { minValue, maxValue } = info.priceRange;
    return {
      ...info,
      priceRange: { minValue: Math.min(minValue, ...held), maxValue: Math.max(maxValue, ...held) },
    };
  }, []);

  /** Each movable line's grip at the line's height, hidden while the line is off the chart */
  const placeGrips = useCallback(() => {
    const p = parts.current;
    if (!p) return;
    const height = p.chart.paneSize(0).height;
    for (const [orderId, grip] of grips.current) {
      const drawn = p.movable.get(orderId);
      const y = drawn ? p.series.priceToCoordinate(drawn.price) : null;
      const shown = y !== null && y >= 0 && y <= height;
      grip.style.visibility = shown ? 'visible' : 'hidden';
      if (shown) grip.style.transform = `translateY(${Math.round(y)}px) translateY(-50%)`;
    }
  }, []);

  const drawLines = useCallback(
    (wanted: readonly PriceLine[]) => {
      const p = parts.current;
      if (!p) return;
      for (const line of p.drawn) p.series.removePriceLine(line);
      const d = drag.current;
      // New lines may widen the scale (`keepHeldInView`): options applied again make the chart ask it again
      if (!d) p.series.applyOptions({ autoscaleInfoProvider: keepHeldInView });
      const moved: MovedLine | null = d
        ? { orderId: d.orderId, price: Number(d.to) }
        : latest.current.pendingMove;
      const titles = wanted.map((line) => (titlesShown ? line.title : ''));
      p.movable = new Map();
      p.drawn = [];
      wanted.forEach((line, i) => {
        const color = lineColor(line, p.colors);
        const options = {
          price: line.price,
          title: titles[i] ?? '',
          color,
          lineWidth: 1 as const,
          // Solid for the position, dashed for orders that may never fill
          lineStyle: line.kind === 'entry' || line.kind === 'liquidation' ? 0 : 2,
          // The price sits on the axis in the line's colour, titles or not
          axisLabelVisible: true,
        };
        const movedHere = line.movable && moved?.orderId === line.movable.orderId ? moved : null;
        if (movedHere) {
          // Where it was, faint and dotted, while it is moved
          p.drawn.push(
            p.series.createPriceLine({
              ...options,
              title: '',
              color: withAlpha(color, 0.45),
              lineStyle: 1,
              axisLabelVisible: false,
            }),
          );
        }
        const price = movedHere ? movedHere.price : line.price;
        const drawn = p.series.createPriceLine({ ...options, price, ...(movedHere ? { lineWidth: 2 } : {}) });
        p.drawn.push(drawn);
        if (line.movable)
          p.movable.set(line.movable.orderId, { line: drawn, price, kind: line.movable.kind });
      });
      placeGrips();
      // The titles are drawn beside the axis: the newest candles move left of them, never under them
      const font = p.chart.options().layout.fontFamily;
      p.chart
        .timeScale()
        .applyOptions({ rightOffsetPixels: labelGutter(titles, (t) => titleWidth(t, font)) });
    },
    [titlesShown, placeGrips, keepHeldInView],
  );
  // The chart is built once per symbol and theme: showing or hiding the titles redraws the lines, not the chart
  const drawLinesNow = useRef(drawLines);
  drawLinesNow.current = drawLines;

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
        autoscaleInfoProvider: keepHeldInView,
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
      if (bars.length > 0) markPainted(PAINT_MARKS.lastCandle);
      const markers = createSeriesMarkers(series, toMarkers(latest.current.fills, colors));
      chart.subscribeCrosshairMove((param) => {
        const time = typeof param.time === 'number' ? param.time * 1000 : undefined;
        setHovered(
          time === undefined ? null : (latest.current.candles.find((c) => c.openTime === time) ?? null),
        );
      });
      // The grips follow their lines whenever the chart repaints (a new bar rescales it, the trader zooms or scrolls):
      // a primitive's pane view is drawn with every paint of the series, so it is the one hook that never lags
      const gripsAtPaint: Primitive = {
        paneViews: () => gripViews,
      };
      const gripViews = [{ renderer: () => ({ draw: () => placeGripsNow.current() }) }];
      series.attachPrimitive(gripsAtPaint);
      parts.current = { chart, series, volume, markers, colors, drawn: [], movable: new Map(), bars };
      drawLinesNow.current(latest.current.lines);
    },
    [pricePrecision, keepHeldInView],
  );
  const placeGripsNow = useRef(placeGrips);
  placeGripsNow.current = placeGrips;

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

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pending move redraws the lines (read through `latest`)
  useEffect(() => {
    drawLines(lines);
  }, [lines, drawLines, pendingMove]);

  // New grips (a TP/SL set elsewhere) go to their line's height before the paint
  // biome-ignore lint/correctness/useExhaustiveDependencies: the lines stand for the grips rendered from them
  useLayoutEffect(() => {
    placeGrips();
  }, [lines, placeGrips]);

  useLineDrag({ wrapper, parts, drag, latest, redraw: drawLinesNow });

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
      <div className="db:flex db:flex-wrap db:items-center db:justify-between db:gap-2">
        <BarLegend candle={hovered ?? last} pricePrecision={pricePrecision} />
        {lines.length > 0 && (
          <Button
            size="sm"
            variant="ghost"
            className="db:h-6 db:px-2 db:text-xs db:aria-pressed:bg-accent db:aria-pressed:text-accent-foreground"
            aria-pressed={titlesShown}
            onClick={() => setTitlesChosen(!titlesShown)}
          >
            Line labels
          </Button>
        )}
      </div>
      <div ref={wrapper} className="db:relative">
        <ChartCanvas<typeof config> data-chart="price" height={height} build={build} />
        {draggable &&
          lines.map((line) =>
            line.movable ? (
              <Grip
                key={line.movable.orderId}
                orderId={line.movable.orderId}
                label={line.movable.label}
                kind={line.movable.kind}
                tone={line.kind}
                grips={grips}
              />
            ) : null,
          )}
      </div>
    </ChartContainer>
  );
}

const GRIP_WORDS = { takeProfit: 'take-profit', stopLoss: 'stop-loss' } as const;

/**
 * The handle of a movable line at the pane's left edge, at the line's height (placed by `placeGrips`, hidden until
 * then). Pointer-only: the positions panel's TP/SL dialog is the keyboard's way to the same change
 */
function Grip({
  orderId,
  label,
  kind,
  tone,
  grips,
}: {
  orderId: string;
  label: string;
  kind: keyof typeof GRIP_WORDS;
  tone: PriceLine['kind'];
  grips: RefObject<Map<string, HTMLElement>>;
}) {
  return (
    <span
      ref={(el) => {
        if (!el) return;
        grips.current.set(orderId, el);
        return () => {
          grips.current.delete(orderId);
        };
      }}
      data-grip={orderId}
      aria-hidden="true"
      title={`Drag to move the ${GRIP_WORDS[kind]}`}
      style={{ visibility: 'hidden' }}
      className={cn(
        'db:absolute db:top-0 db:left-1 db:z-10 db:cursor-ns-resize db:touch-none db:select-none db:rounded db:border db:border-current db:bg-background db:px-1.5 db:py-0.5 db:font-mono db:text-[11px] db:font-semibold db:leading-none db:shadow-sm',
        tone === 'buy' ? 'db:text-success' : 'db:text-destructive',
      )}
    >
      {label} ⇕
    </span>
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
