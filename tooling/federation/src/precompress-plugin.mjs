// @ts-check
/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text asset of a production build, so the static
 * site sends the smallest encoding the browser accepts without compressing on each request. The copies are written
 * after emit, outside the compilation's assets: they stay out of the stats, the MF manifest and the bundle bench.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text assets worth compressing; source maps are fetched only by devtools, so they are left alone */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/;
/** Below this a compressed copy saves less than its headers cost */
const MIN_BYTES = 1024;

export class PrecompressPlugin {
  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const outputPath = compilation.outputOptions.path ?? compiler.outputPath;
      const work = [];
      for (const asset of compilation.getAssets()) {
        if (!COMPRESSIBLE.test(asset.name)) continue;
        const source = asset.source.buffer();
        if (source.length < MIN_BYTES) continue;
        const file = join(outputPath, asset.name);
        work.push(
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }).then((data) => writeFile(`${file}.br`, data)),
          gz(source, { level: 9 }).then((data) => writeFile(`${file}.gz`, data)),
        );
      }
      await Promise.all(work);
    });
  }
}
