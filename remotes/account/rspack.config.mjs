import { defineFederatedApp } from '@kestrel/federation';

export default defineFederatedApp({
  name: 'account',
  dir: import.meta.dirname,
  title: 'Kestrel account (standalone)',
  exposes: {
    './AccountPage': './src/app/routes/account.tsx',
    './SettingsPage': './src/app/routes/settings.tsx',
  },
});
