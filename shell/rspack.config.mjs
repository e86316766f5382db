import { defineFederatedApp } from '@kestrel/federation';

export default defineFederatedApp({ name: 'shell', dir: import.meta.dirname, title: 'Kestrel' });
