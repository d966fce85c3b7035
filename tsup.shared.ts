import { defineConfig } from 'tsup';

/** The build of every published package: ESM for Node 20 with declarations and source maps. */
export function storefrontBuild(entry: string[] = ['src/index.ts']) {
  return defineConfig({
    entry,
    format: ['esm'],
    target: 'node20',
    dts: true,
    sourcemap: true,
    clean: true,
  });
}
