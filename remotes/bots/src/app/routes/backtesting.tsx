import { RemotePage } from '../../components/remote-page';

export default function BacktestingPage() {
  return <RemotePage title="Backtesting" />;
}
