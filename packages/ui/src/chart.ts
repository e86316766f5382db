import './styles/ui.css';

export {
  ChartCanvas,
  type ChartCanvasProps,
  type ChartConfig,
  ChartContainer,
  type ChartContainerProps,
  type ChartContextValue,
  type ChartTheme,
  chartBaseOptions,
  useChart,
  withAlpha,
} from './components/chart';
