// In the entry, so the page links it in its head: the landing page's part painted from the HTML is styled at once
import './styles.css';
import { preloadRouteCode } from './app/route-code';
import './config-request';
import { makeZodJitless } from './zod-jitless';

// Before any zod on the page builds a schema (see zod-jitless.ts)
makeZodJitless();

// Async boundary: shared singletons are negotiated with the remotes before any app code runs
import('./bootstrap');
// The page being opened loads its code beside the shell's (config.json is already on its way: config-request.ts)
preloadRouteCode(location.pathname);
