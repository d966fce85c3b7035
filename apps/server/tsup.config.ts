import { defineConfig } from 'tsup';

/**
 * Packages the start script's bundle leaves to Node's resolver: native code and
 * WebAssembly found beside their own files (PGlite, secp256k1, and re2 and pdf.js behind
 * the validate and pdf packages), the development payment stack (another process), and
 * what is loaded only on use (Stripe, esbuild).
 */
const BESIDE = [
  '@electric-sql/pglite',
  'secp256k1',
  '@storefront/validate',
  '@storefront/pdf',
  '@storefront/facilitator',
  'stripe',
  'esbuild',
  'pg-native',
];

/**
 * One process's entry as one file with its pure-JavaScript dependencies: Node 20 then
 * reads one module instead of hundreds, which is most of the start's time
 * (bench/README.md, "Start-up and idle memory"; docs/decisions.md).
 */
function bundle(entry: Record<string, string>) {
  return {
    entry,
    format: ['esm' as const],
    target: 'node20',
    sourcemap: true,
    clean: false,
    noExternal: [
      new RegExp(`^(?!(${BESIDE.map((name) => name.replace('/', '\\/')).join('|')})(\\/|$))`),
    ],
    // Bundled CommonJS dependencies call `require` for Node's own modules.
    banner: {
      js: "import { createRequire as storefrontCreateRequire } from 'node:module'; const require = storefrontCreateRequire(import.meta.url);",
    },
  };
}

export default defineConfig([
  {
    // `product-worker` is the product thread `src/work/pool.ts` starts beside the bundle.
    entry: {
      index: 'src/index.ts',
      'admin-cli': 'src/admin-cli.ts',
      'product-worker': 'src/work/worker.ts',
    },
    format: ['esm'],
    target: 'node20',
    dts: { entry: 'src/index.ts' },
    sourcemap: true,
    // Everything but the other build's output, so the two builds never race on a file.
    clean: ['!main.js', '!main.js.map', '!worker.js', '!worker.js.map'],
  },
  // `main` is what `pnpm start` runs; `worker`, what `pnpm worker` runs (job workers, no HTTP).
  bundle({ main: 'src/main.ts' }),
  bundle({ worker: 'src/worker-main.ts' }),
]);
