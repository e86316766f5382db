import './styles.css';
import { initKestrelRuntime, loadRuntimeConfig } from '@kestrel/shared-runtime';
import { registerRemotesFromConfig } from '@kestrel/shared-runtime/federation';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { StartupError } from './app/startup-error';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

try {
  // Run-time config: the same build runs anywhere; remote URLs can change without rebuilding the shell
  // config.json sits beside the app's files, wherever the app is hosted (never relative to a deep link)
  const config = await loadRuntimeConfig(`${__webpack_public_path__}config.json`);
  registerRemotesFromConfig(config);
  // One runtime for the page: the shell and every remote read the session, socket and state through it
  const runtime = initKestrelRuntime(config);
  void runtime.start();
  // The theme lives in the runtime (one store for the top-bar toggle and /settings), created with it above
  root.render(<App />);
} catch (error) {
  root.render(<StartupError error={error} />);
}
