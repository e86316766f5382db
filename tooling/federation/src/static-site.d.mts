/** Serves one built app as its own static site (see static-site.mjs) */
export function serveStaticSite(options: {
  /** Folder of the built app (its dist/) */
  root: string;
  /** 0 picks a free port */
  port: number;
  host?: string;
  /** Answer unknown page paths with index.html (client-side routes) */
  spa?: boolean;
  /** Paths answered with this JSON instead of a file (config.json); a function is asked on every request */
  json?: Record<string, unknown>;
  /**
   * Origins the pages may load scripts from and talk to; sends a Content Security Policy built from them. A function
   * is asked on every request (the remotes' addresses can change while the site runs)
   */
  csp?: CspOrigins | (() => CspOrigins);
}): Promise<{ url: string; port: number; close: () => Promise<void> }>;

export interface CspOrigins {
  /** Origins whose scripts and stylesheets the pages load (the remotes' sites) */
  scripts: string[];
  /** Origins the pages fetch from or open sockets to (the API, its socket) */
  connect: string[];
}

/** The pages' Content Security Policy for these origins and inline-script hashes */
export function contentSecurityPolicy(origins: CspOrigins, scriptHashes?: string[]): string;
