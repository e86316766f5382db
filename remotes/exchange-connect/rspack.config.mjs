import { defineFederatedApp } from '@kestrel/federation';

export default defineFederatedApp({
  name: 'exchange_connect',
  dir: import.meta.dirname,
  title: 'Kestrel exchange connect (standalone)',
  exposes: {
    './ConnectExchangeModal': './src/features/exchanges/components/connect-exchange-modal.tsx',
    './ExchangeConnections': './src/features/exchanges/components/exchange-connections.tsx',
  },
});
