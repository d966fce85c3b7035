import { defineConfig } from 'tsup';

export default defineConfig({
  // `product-worker` is the product thread `src/work/pool.ts` starts beside the bundle.
  entry: {
    index: 'src/index.ts',
    main: 'src/main.ts',
    'admin-cli': 'src/admin-cli.ts',
    'product-worker': 'src/work/worker.ts',
  },
  format: ['esm'],
  target: 'node20',
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
});
