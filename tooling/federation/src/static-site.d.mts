/** Serves one built app as its own static site (see static-site.mjs) */
export function serveStaticSite(options: {
  /** Folder of the built app (its dist/) */
  root: string;
  /** 0 picks a free port */
  port: number;
  host?: string;
  /** Answer unknown page paths with index.html (client-side routes) */
  spa?: boolean;
  /** Paths answered with this JSON instead of a file (config.json) */
  json?: Record<string, unknown>;
}): Promise<{ url: string; port: number; close: () => Promise<void> }>;
