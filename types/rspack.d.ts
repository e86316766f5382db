// rspack's `import.meta.webpackContext`: a build-time map of the files in a folder, each loaded as its own chunk
interface ImportMeta {
  webpackContext(
    directory: string,
    options: { recursive?: boolean; regExp?: RegExp; mode?: 'lazy' | 'sync' | 'eager' },
  ): ((key: string) => Promise<unknown>) & { keys(): string[] };
}
