import { type RuntimeConfig, readRuntimeConfig } from '@kestrel/contracts';
import { BehaviorSubject, filter, firstValueFrom, type Observable } from 'rxjs';

const configSubject = new BehaviorSubject<RuntimeConfig | null>(null);

/** The shell's run-time configuration once loaded; never emits before that */
export const runtimeConfig$: Observable<RuntimeConfig> = configSubject.pipe(
  filter((c): c is RuntimeConfig => c !== null),
);

/** Current configuration, or throws when the shell has not provided it yet */
export function getRuntimeConfig(): RuntimeConfig {
  const config = configSubject.getValue();
  if (!config) throw new Error('Runtime configuration is not loaded yet: the shell provides it at start');
  return config;
}

/** Resolves once the configuration is provided */
export function whenRuntimeConfig(): Promise<RuntimeConfig> {
  return firstValueFrom(runtimeConfig$);
}

/** Validates and publishes the configuration; called once by the shell (or a remote's standalone page) */
export function provideRuntimeConfig(input: unknown): RuntimeConfig {
  // Read without zod (the page is starting): `readRuntimeConfig` keeps RuntimeConfigSchema's rules
  const parsed = readRuntimeConfig(input);
  if (!parsed.success) throw new Error(`Invalid runtime configuration: ${parsed.issues.join('; ')}`);
  configSubject.next(parsed.data);
  return parsed.data;
}

/** Fetches `config.json` (or another URL) and provides it */
export async function loadRuntimeConfig(
  url = '/config.json',
  fetchImpl: typeof fetch = fetch,
): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await fetchImpl(url, { cache: 'no-store' });
  } catch (cause) {
    throw new Error(`Could not fetch runtime configuration from ${url}`, { cause });
  }
  if (!response.ok) {
    throw new Error(`Could not fetch runtime configuration from ${url}: HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new Error(`Runtime configuration at ${url} is not valid JSON`, { cause });
  }
  return provideRuntimeConfig(body);
}
