// In the entry, so the page links it in its head: the landing page's part painted from the HTML is styled at once
import './styles.css';
import { config as zodConfig } from 'zod/v4/core';
import { preloadRouteCode } from './app/route-code';
import './config-request';

// The page's Content Security Policy refuses eval. zod compiles a fast path for object schemas with `new Function`
// after probing whether it may; under the policy that probe is refused and reported as a violation (zod then checks
// without eval anyway). Turned off here, before any module of the app loads and parses (some parse stored state
// while they load). zod keeps this setting on globalThis, so it holds for every copy on the page, the remotes' too.
zodConfig({ jitless: true });

// Async boundary: shared singletons are negotiated with the remotes before any app code runs
import('./bootstrap');
// The page being opened loads its code beside the shell's (config.json is already on its way: config-request.ts)
preloadRouteCode(location.pathname);
