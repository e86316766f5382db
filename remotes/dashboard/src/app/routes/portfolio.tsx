import { RemotePage } from '../../components/remote-page';

export default function PortfolioPage() {
  return <RemotePage title="Portfolio" />;
}
