import {
  ColorType,
  createChart,
  type DeepPartial,
  type IChartApi,
  type TimeChartOptions,
} from 'lightweight-charts';
import * as React from 'react';
import { type ChartTheme, readChartTheme, resolveColor, withAlpha } from '../lib/chart-theme';
import { cn } from '../lib/cn';
import { formatPercent, formatUsdt } from '../lib/format';

/**
 * What a chart draws, by series key: its name (legends, descriptions) and its colour, any CSS colour, normally a
 * token (`var(--success)`) so light and dark themes both hold
 */
export type ChartConfig = Record<string, { label: string; color: string }>;

export interface ChartContextValue<TConfig extends ChartConfig = ChartConfig> {
  config: TConfig;
  /** The theme's colours resolved to rgba (the canvas cannot read CSS variables); null before the first paint */
  theme: ChartTheme | null;
  /** Each configured series' colour resolved to rgba, re-read when the theme changes */
  colors: Record<keyof TConfig, string> | null;
}

const ChartContext = React.createContext<ChartContextValue | null>(null);

/** The surrounding `ChartContainer`'s config and resolved colours; throws outside one */
export function useChart<TConfig extends ChartConfig = ChartConfig>(): ChartContextValue<TConfig> {
  const context = React.useContext(ChartContext);
  if (!context) throw new Error('useChart must be used inside a <ChartContainer>');
  return context as ChartContextValue<TConfig>;
}

function readColors<TConfig extends ChartConfig>(
  element: Element,
  config: TConfig,
): Record<keyof TConfig, string> {
  const style = getComputedStyle(element);
  const out = {} as Record<keyof TConfig, string>;
  for (const key of Object.keys(config) as (keyof TConfig & string)[]) {
    // The container sets `--color-<key>`; computed, its var() references are the current theme's token values
    out[key] = resolveColor(style.getPropertyValue(`--color-${key}`).trim(), '#6b7280');
  }
  return out;
}

export type ChartContainerProps<TConfig extends ChartConfig> = Omit<
  React.ComponentProps<'figure'>,
  'title'
> & {
  config: TConfig;
  /** The visible caption */
  title: React.ReactNode;
  /** What the chart shows, in words, for screen readers (the canvas itself says nothing) */
  description: string;
};

/**
 * A chart's frame: a `<figure>` with its caption and a spoken description, the config's colours as `--color-<key>`,
 * and the theme resolved for canvas-drawn charts, read again whenever the shell switches `.dark` on `<html>`
 */
export function ChartContainer<TConfig extends ChartConfig>({
  config,
  title,
  description,
  className,
  style,
  children,
  ...props
}: ChartContainerProps<TConfig>) {
  const ref = React.useRef<HTMLElement>(null);
  const id = React.useId();
  const [resolved, setResolved] = React.useState<Pick<ChartContextValue<TConfig>, 'theme' | 'colors'>>({
    theme: null,
    colors: null,
  });
  // Read through a ref keyed by content: a config written inline is a new object on every render
  const configRef = React.useRef(config);
  configRef.current = config;
  const configKey = JSON.stringify(config);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `configKey` stands for the config's content
  React.useEffect(() => {
    const read = () => {
      if (!ref.current) return;
      setResolved({ theme: readChartTheme(ref.current), colors: readColors(ref.current, configRef.current) });
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
    return () => observer.disconnect();
  }, [configKey]);
  const vars = Object.fromEntries(
    Object.entries(config).map(([key, { color }]) => [`--color-${key}`, color]),
  );
  const value = React.useMemo(() => ({ config, ...resolved }), [config, resolved]);
  return (
    <ChartContext.Provider value={value}>
      {/* The chart library adds its own links and cells, so the canvas frame is not an image: the figure is described */}
      <figure
        ref={ref}
        data-slot="chart"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-description`}
        className={cn('ui:flex ui:min-w-0 ui:flex-col ui:gap-2', className)}
        style={{ ...vars, ...style } as React.CSSProperties}
        {...props}
      >
        <figcaption id={`${id}-title`} className="ui:text-sm ui:font-medium">
          {title}
        </figcaption>
        <p id={`${id}-description`} className="ui:sr-only">
          {description}
        </p>
        {children}
      </figure>
    </ChartContext.Provider>
  );
}

/** The options every Kestrel chart shares: token colours, monospace figures, a muted grid, time to the minute */
export function chartBaseOptions(theme: ChartTheme): DeepPartial<TimeChartOptions> {
  return {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: theme.background },
      textColor: theme.muted,
      fontFamily: getComputedStyle(document.documentElement).getPropertyValue('--font-mono') || 'monospace',
      attributionLogo: true,
      panes: { separatorColor: theme.border },
    },
    grid: {
      vertLines: { color: withAlpha(theme.border, 0.5) },
      horzLines: { color: withAlpha(theme.border, 0.5) },
    },
    rightPriceScale: { borderColor: theme.border },
    timeScale: { borderColor: theme.border, timeVisible: true, secondsVisible: false },
    crosshair: {
      horzLine: { labelBackgroundColor: theme.primary },
      vertLine: { labelBackgroundColor: theme.primary },
    },
  };
}

export type ChartCanvasProps<TConfig extends ChartConfig> = Omit<React.ComponentProps<'div'>, 'children'> & {
  /** Height in px (the library sizes its canvas to the box) */
  height: number;
  /**
   * Adds the series once the theme is known, and again when the theme changes. Memoise it (`useCallback`) on the
   * data it draws: a new function rebuilds the chart.
   */
  build: (chart: IChartApi, context: { theme: ChartTheme; colors: Record<keyof TConfig, string> }) => void;
};

let canvasDraws: boolean | undefined;
/** Whether this browser gives a 2D canvas (the chart library draws nothing without one: a DOM without layout) */
function canDrawCharts(): boolean {
  canvasDraws ??= document.createElement('canvas').getContext('2d') !== null;
  return canvasDraws;
}

/** A lightweight-charts canvas inside a `ChartContainer`: created with the shared options, removed on unmount */
export function ChartCanvas<TConfig extends ChartConfig>({
  height,
  build,
  className,
  style,
  ...props
}: ChartCanvasProps<TConfig>) {
  const { theme, colors } = useChart<TConfig>();
  const ref = React.useRef<HTMLDivElement>(null);
  const [failure, setFailure] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (!ref.current || !theme || !colors) return;
    if (!canDrawCharts()) {
      setFailure('this browser has no canvas to draw on');
      return;
    }
    let chart: IChartApi | undefined;
    try {
      chart = createChart(ref.current, { ...chartBaseOptions(theme), height });
      build(chart, { theme, colors });
      chart.timeScale().fitContent();
      setFailure(null);
    } catch (err) {
      // A chart that cannot draw says so in its place; the page around it (a form, a table) stays usable
      chart?.remove();
      setFailure(err instanceof Error ? err.message : String(err));
      return;
    }
    const drawn = chart;
    return () => drawn.remove();
  }, [theme, colors, height, build]);
  return (
    <div
      ref={ref}
      data-slot="chart-canvas"
      className={cn('ui:w-full', className)}
      style={{ height, ...style }}
      {...props}
    >
      {failure && (
        <p role="alert" className="ui:p-2 ui:text-sm ui:text-muted-foreground">
          The chart could not be drawn ({failure}); its figures are beside it.
        </p>
      )}
    </div>
  );
}

export type { ChartTheme } from '../lib/chart-theme';
export { withAlpha } from '../lib/chart-theme';

/** Candlestick options that draw body, border and wick of a candle in the config's up and down colours */
export function candleColors(colors: { up: string; down: string }) {
  return {
    upColor: colors.up,
    downColor: colors.down,
    borderUpColor: colors.up,
    borderDownColor: colors.down,
    wickUpColor: colors.up,
    wickDownColor: colors.down,
  };
}

/** A price scale of returns in percent: a series value of 12.5 reads "12.50%" (series hold percent, not fractions) */
export const percentPriceFormat = {
  type: 'custom' as const,
  formatter: (v: number) => formatPercent(v / 100),
  minMove: 0.01,
};

/** A price scale of USDT amounts (equity, PnL), to the cent, as `formatUsdt` writes them everywhere else: "1,234.50" */
export const usdtPriceFormat = {
  type: 'custom' as const,
  formatter: (v: number) => formatUsdt(v),
  minMove: 0.01,
};
