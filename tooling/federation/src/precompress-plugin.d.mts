import type { Compiler } from '@rspack/core';

/** Writes `.br` and `.gz` copies beside a production build's text assets (see precompress-plugin.mjs) */
export class PrecompressPlugin {
  apply(compiler: Compiler): void;
}
