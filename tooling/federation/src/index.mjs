// @ts-check
/**
 * The one rspack + Module Federation configuration of every Kestrel app (the shell and each remote).
 * Keeping it in one place is what keeps the shared singletons, CSS layering and cache rules identical across
 * separately deployed apps; an app only states its name, port, prefix and what it exposes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import rspack from '@rspack/core';
import { PrecompressPlugin } from './precompress-plugin.mjs';

const require = createRequire(import.meta.url);

/** Dev-server ports; production deployments may use any URL (the shell reads them from config.json) */
export const DEFAULT_PORTS = Object.freeze({
  shell: 3000,
  dashboard: 3001,
  bots: 3002,
  exchange_connect: 3003,
  account: 3004,
});

/**
 * The run-time config for everything on one machine with the default ports. Every app's build emits it as
 * `config.json`; a deployment replaces that file (or serves its own) without rebuilding.
 * @param {{ host?: string, apiPort?: number }} [options]
 */
export function localRuntimeConfig({ host = '127.0.0.1', apiPort = 8000 } = {}) {
  /** @param {keyof typeof DEFAULT_PORTS} name */
  const manifest = (name) => `http://${host}:${DEFAULT_PORTS[name]}/mf-manifest.json`;
  return {
    apiBaseUrl: `http://${host}:${apiPort}`,
    socketBaseUrl: `ws://${host}:${apiPort}/ws`,
    remotes: {
      dashboard: manifest('dashboard'),
      bots: manifest('bots'),
      exchange_connect: manifest('exchange_connect'),
      account: manifest('account'),
    },
  };
}

/** Emits the default `config.json` into the build */
class RuntimeConfigPlugin {
  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('KestrelRuntimeConfig', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'KestrelRuntimeConfig', stage: compiler.rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const json = `${JSON.stringify(localRuntimeConfig(), null, 2)}\n`;
          compilation.emitAsset('config.json', new compiler.rspack.sources.RawSource(json));
        },
      );
    });
  }
}

/**
 * What a build is, for the platform view and for whoever has to tell two deployments apart: the app, its version,
 * the shared-runtime version it was built against, the commit and the time. Emitted as `build-info.json` beside
 * `mf-manifest.json` (an entry file: revalidated on every load, like the manifest).
 * `KESTREL_BUILD_LABEL` names a build (e.g. a canary); `KESTREL_BUILD_COMMIT` overrides the commit read from git.
 */
class BuildInfoPlugin {
  /**
   * @param {string} name
   * @param {string} dir
   * @param {Record<string, string>} deps
   */
  constructor(name, dir, deps) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    this.info = {
      app: name,
      version: pkg.version,
      sharedRuntime:
        '@kestrel/shared-runtime' in deps ? readPackageJson('@kestrel/shared-runtime', dir).version : null,
      commit: process.env.KESTREL_BUILD_COMMIT ?? gitCommit(dir),
      builtAt: new Date().toISOString(),
      label: process.env.KESTREL_BUILD_LABEL || null,
    };
  }

  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('KestrelBuildInfo', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'KestrelBuildInfo', stage: compiler.rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const json = `${JSON.stringify(this.info, null, 2)}\n`;
          compilation.emitAsset('build-info.json', new compiler.rspack.sources.RawSource(json));
        },
      );
    });
  }
}

/** @param {string} dir */
function gitCommit(dir) {
  try {
    return (
      execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim() || null
    );
  } catch {
    // A build from a source archive has no git: the platform view says "unknown"
    return null;
  }
}

/** A workspace package's manifest: its version for strict singleton checks (workspace:* is no semver range) */
function readPackageJson(pkg, appDir) {
  // pnpm links each workspace dependency into the app's own node_modules
  return JSON.parse(readFileSync(join(appDir, 'node_modules', pkg, 'package.json'), 'utf8'));
}

/**
 * Everything that must exist once per page. `loaded-first` + singleton: whichever copy loads first (the shell's)
 * serves everyone, and a remote that is down cannot stop the others from starting.
 * @param {Record<string, string>} deps the app's dependencies (from its package.json)
 * @param {string} appDir the app's folder
 * @param {boolean} [isHost] the shell: provides `@kestrel/contracts` without consuming it
 */
export function sharedSingletons(deps, appDir, isHost = false) {
  /** @type {Record<string, object>} */
  const shared = {};
  /** @param {string} key shared key; a trailing slash shares every subpath (react-dom/client, react/jsx-runtime) */
  const singleton = (key, dep = key) => {
    if (dep in deps) shared[key] = { singleton: true, requiredVersion: deps[dep] };
  };
  singleton('react');
  singleton('react/', 'react');
  singleton('react-dom');
  singleton('react-dom/', 'react-dom');
  singleton('@tanstack/react-query');
  // `@kestrel/ui/form` binds fields through react-hook-form's context: the app's `useForm` must be the same copy
  singleton('react-hook-form');
  if ('@kestrel/shared-runtime' in deps) {
    const { version } = readPackageJson('@kestrel/shared-runtime', appDir);
    // Two runtimes would mean two sessions and two sockets: refuse a mismatched one instead of loading it
    const strict = { singleton: true, strictVersion: true, requiredVersion: version, version };
    shared['@kestrel/shared-runtime'] = strict;
    shared['@kestrel/shared-runtime/'] = strict;
  }
  // Remotes take the contracts from the share scope (the shell only provides them: see `contractsForRemotes`),
  // each entry point on its own like ui's: a page loads the bots' or the account's schemas only if it imports them
  if ('@kestrel/contracts' in deps && !isHost) {
    const { version, ...manifest } = readPackageJson('@kestrel/contracts', appDir);
    for (const shareKey of contractsEntryPoints(manifest)) {
      shared[shareKey] = { singleton: true, requiredVersion: `^${version}`, version };
    }
  }
  if ('@kestrel/ui' in deps) {
    const manifest = readPackageJson('@kestrel/ui', appDir);
    const ui = { singleton: true, requiredVersion: `^${manifest.version}`, version: manifest.version };
    // Each JS entry point (`@kestrel/ui`, `@kestrel/ui/dialog`…) is shared on its own, so a page loads only those
    // it imports; stylesheets (`base.css`) are never shared modules
    for (const subpath of Object.keys(manifest.exports)) {
      if (!subpath.endsWith('.css')) shared[`@kestrel/ui${subpath.slice(1)}`] = ui;
    }
  }
  return shared;
}

/**
 * The shell provides `@kestrel/contracts` (each of its entry points) to the share scope without consuming it
 * itself. Its own code (through the runtime) keeps a tree-shaken copy of the few schemas the landing page needs; a
 * remote that asks for an entry point gets the whole of it from the shell's build, whose chunks reuse the zod chunk
 * the page already has.
 * Consumed by the shell too it would cost the landing the whole contracts (+6 KB gzip); bundled by each remote it
 * costs /dashboard a second zod (26 KB).
 * @param {string} appDir
 * @param {Record<string, string>} deps
 */
function contractsForRemotes(appDir, deps) {
  if (!('@kestrel/contracts' in deps)) return [];
  const manifest = readPackageJson('@kestrel/contracts', appDir);
  const { version } = manifest;
  const resolve = createRequire(join(appDir, 'package.json')).resolve;
  const provides = Object.fromEntries(
    contractsEntryPoints(manifest).map((shareKey) => [
      resolve(shareKey),
      { shareKey, version, singleton: true, requiredVersion: `^${version}` },
    ]),
  );
  return [new rspack.sharing.ProvideSharedPlugin({ provides, enhanced: true })];
}

/**
 * The contracts' JS entry points (`@kestrel/contracts`, `@kestrel/contracts/bots`…), each a shared module of its
 * own: the main one holds what every signed-in page reads, the others one area's schemas (the route table's JSON
 * is read at build time, never shared)
 * @param {{ exports: Record<string, string> }} manifest the contracts' package.json
 */
function contractsEntryPoints(manifest) {
  return Object.keys(manifest.exports)
    .filter((subpath) => !subpath.endsWith('.json'))
    .map((subpath) => `@kestrel/contracts${subpath.slice(1)}`);
}

/** The MF runtime core the enhanced plugin runs on (the shell's copy serves every remote on its pages) */
function runtimeCorePath() {
  const fromEnhanced = createRequire(require.resolve('@module-federation/enhanced/rspack'));
  const fromTools = createRequire(fromEnhanced.resolve('@module-federation/runtime-tools'));
  // its ESM build (`require.resolve` lands on the CommonJS one beside it)
  return join(dirname(fromTools.resolve('@module-federation/runtime-core')), 'index.js');
}

/**
 * react-router 7 points every export condition at its development build (dev warnings on); its production build
 * sits beside it. Both entry points must move together: `index` and `dom` from different builds would be two
 * routers with separate contexts.
 * @param {string} appDir
 */
function reactRouterProductionBuild(appDir) {
  const fromApp = createRequire(join(appDir, 'package.json'));
  let routerDom;
  try {
    routerDom = fromApp.resolve('react-router-dom');
  } catch {
    return {}; // the app does not route
  }
  const dist = dirname(dirname(createRequire(routerDom).resolve('react-router')));
  return {
    'react-router$': join(dist, 'production/index.mjs'),
    'react-router/dom$': join(dist, 'production/dom-export.mjs'),
  };
}

/**
 * The page modules a remote exposes, from the one route table in @kestrel/contracts (the shell's router and
 * sidebar read the same file), so a page is added or moved in one place.
 * @param {string} name the remote's container name
 * @param {string} dir the remote's folder, which depends on @kestrel/contracts
 * @returns {Record<string, string>} exposed module → source file
 */
export function pageExposes(name, dir) {
  /** @type {{ remote: string, module: string, source: string }[]} */
  const table = createRequire(join(dir, 'package.json'))('@kestrel/contracts/page-routes.json');
  return Object.fromEntries(
    table.filter((page) => page.remote === name).map((page) => [page.module, page.source]),
  );
}

/**
 * @param {object} options
 * @param {'shell' | 'dashboard' | 'bots' | 'exchange_connect' | 'account'} options.name container name
 * @param {string} options.dir the app's folder (import.meta.dirname of its rspack.config.mjs)
 * @param {Record<string, string>} [options.exposes] federated modules besides the remote's pages (remotes only;
 *   its pages come from the route table, see `pageExposes`)
 * @param {string} [options.title] page title of the app's own HTML page
 * @param {string[]} [options.runtimePlugins] MF runtime plugins (paths relative to the app)
 * @param {string} [options.landingHtml] static markup of the page at `/`, shown from the HTML until the app renders
 *   (the shell's landing page: its largest paint no longer waits for the app's code); other paths never show it
 */
export function defineFederatedApp({
  name,
  dir,
  exposes,
  title = 'Kestrel',
  runtimePlugins = [],
  landingHtml = '',
}) {
  const isHost = name === 'shell';
  const production = process.env.NODE_ENV !== 'development';
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies };
  const port = Number(process.env.PORT ?? DEFAULT_PORTS[name]);
  // Production remotes leave the MF runtime core to the shell (see `standaloneRuntimeCore`); dev servers keep their own
  const externalRuntime = production && !isHost;
  const htmlPublicPath = process.env.KESTREL_PUBLIC_PATH ?? '/';
  const outDir = process.env.KESTREL_OUT_DIR ?? join(dir, 'dist');

  /** @type {import('@rspack/core').Configuration} */
  const config = {
    name,
    context: dir,
    mode: production ? 'production' : 'development',
    devtool: production ? 'source-map' : 'cheap-module-source-map',
    entry: { main: './src/index.ts' },
    output: {
      // KESTREL_OUT_DIR: a second build of the same app (a canary, a rollback) beside the usual dist/
      path: outDir,
      // 'auto': chunks load from wherever remoteEntry.js was served, so a remote can move without a rebuild
      publicPath: 'auto',
      uniqueName: name,
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      cssFilename: production ? '[name].[contenthash:8].css' : '[name].css',
      cssChunkFilename: production ? '[name].[contenthash:8].css' : '[name].css',
      clean: true,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      alias: production ? reactRouterProductionBuild(dir) : {},
    },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules[\\/](?!\.pnpm[\\/]node_modules)/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: !production, refresh: false } },
            },
            env: { targets: 'chrome >= 111, firefox >= 128, safari >= 16.4' },
          },
          type: 'javascript/auto',
        },
        {
          test: /\.css$/,
          use: [
            {
              loader: require.resolve('postcss-loader'),
              options: { postcssOptions: { plugins: [require.resolve('@tailwindcss/postcss')] } },
            },
          ],
          type: 'css/auto',
        },
      ],
    },
    plugins: [
      new rspack.HtmlRspackPlugin({
        template: join(import.meta.dirname, 'index.html'),
        title,
        // Absolute script URLs in the page: a deep link such as /kestrel/agent-42 must not resolve them
        // against its own path. Chunks still load from wherever the app is hosted (output.publicPath 'auto').
        publicPath: htmlPublicPath,
        // Only the app's own entry: without this the remote's page would also inject remoteEntry.js
        chunks: ['main'],
        // A production remote's own page first loads the MF runtime core its remoteEntry.js leaves to the shell
        templateParameters: {
          runtimeCore: externalRuntime ? `${htmlPublicPath}${STANDALONE_RUNTIME}` : '',
          landingHtml,
        },
      }),
      new RuntimeConfigPlugin(),
      new BuildInfoPlugin(name, dir, deps),
      new ModuleFederationPlugin({
        name,
        filename: isHost ? undefined : 'remoteEntry.js',
        exposes: isHost ? undefined : { ...pageExposes(name, dir), ...exposes },
        // Remotes are registered at run time from config.json, never baked into the build
        remotes: {},
        shared: sharedSingletons(deps, dir, isHost),
        shareStrategy: 'loaded-first',
        runtimePlugins: runtimePlugins.map((p) => join(dir, p)),
        manifest: true,
        // Types travel through workspace packages; the dts plugin loops in dev and fails silently in builds
        dts: false,
        // Browser-only: drops the runtime's Node loading paths
        experiments: {
          optimization: { target: 'web' },
          // In development too: a production remote needs the core from whichever shell loads it
          ...(isHost ? { provideExternalRuntime: true } : {}),
          ...(externalRuntime ? { externalRuntime: true } : {}),
        },
      }),
      ...(isHost ? contractsForRemotes(dir, deps) : []),
      ...(production ? [new PrecompressPlugin()] : []),
    ],
    optimization: {
      minimizer: [
        new rspack.SwcJsMinimizerRspackPlugin(),
        // Without modern targets lightningcss rewrites oklch() tokens into bulky fallbacks
        new rspack.LightningCssMinimizerRspackPlugin({ minimizerOptions: { targets: 'chrome >= 111' } }),
      ],
    },
    performance: { hints: false },
    devServer: {
      port,
      host: '127.0.0.1',
      hot: false,
      liveReload: true,
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: { errors: true, warnings: false } },
    },
  };
  return externalRuntime ? [config, standaloneRuntimeCore(name, dir)] : config;
}

/** The file a production remote's standalone page loads before its entry: the MF runtime core, as a page global */
const STANDALONE_RUNTIME = 'mf-runtime-core.js';

/**
 * A remote's `remoteEntry.js` does not embed the MF runtime core (~17 KB gzip): it takes the shell's, which the
 * shell's build puts on the page (`provideExternalRuntime`). The remote's standalone page has no shell, so a second
 * small build emits the core beside the remote's files and the page loads it first. Its own build, because the MF
 * plugin would put the federation runtime, which needs the core already there, in front of any entry of its own.
 * @param {string} name
 * @param {string} dir
 * @returns {import('@rspack/core').Configuration}
 */
function standaloneRuntimeCore(name, dir) {
  return {
    name: `${name}-runtime-core`,
    // After the app's build, whose `output.clean` would otherwise remove this file
    dependencies: [name],
    context: dir,
    mode: 'production',
    devtool: false,
    target: 'web',
    entry: { 'mf-runtime-core': join(import.meta.dirname, 'standalone-runtime.mjs') },
    output: {
      path: process.env.KESTREL_OUT_DIR ?? join(dir, 'dist'),
      filename: STANDALONE_RUNTIME,
      clean: false,
    },
    resolve: { alias: { '@kestrel/federation/runtime-core$': runtimeCorePath() } },
    optimization: { minimizer: [new rspack.SwcJsMinimizerRspackPlugin()] },
    plugins: [new PrecompressPlugin()],
    performance: { hints: false },
  };
}
