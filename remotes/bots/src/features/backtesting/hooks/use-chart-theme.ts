import { type RefObject, useEffect, useState } from 'react';
import { type ChartTheme, readChartTheme } from '../lib/chart-theme';

/** The token colours for a chart, read again whenever the shell switches the theme class on <html> */
export function useChartTheme(ref: RefObject<HTMLElement | null>): ChartTheme | null {
  const [theme, setTheme] = useState<ChartTheme | null>(null);
  useEffect(() => {
    const read = () => {
      if (ref.current) setTheme(readChartTheme(ref.current));
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
    return () => observer.disconnect();
  }, [ref]);
  return theme;
}
