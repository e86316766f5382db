// Side-effect stylesheet imports are compiled by rspack (Tailwind via PostCSS); TypeScript only needs to know them
declare module '*.css';

/** Where the bundler loads this app's files from (rspack resolves it at run time with publicPath 'auto') */
declare const __webpack_public_path__: string;
