// Side-effect stylesheet imports are compiled by rspack (Tailwind via PostCSS); TypeScript only needs to know them
declare module '*.css';
