/**
 * Build the JavaScript of every workspace package whose build inputs changed since this
 * script last built it, and nothing else: `pnpm start` runs it before the server.
 *
 * A package's inputs are its `src/`, `package.json`, `tsup.config.ts` and `tsconfig.json`,
 * with the root `tsup.shared.ts`, `tsconfig.base.json` and `pnpm-lock.yaml`. Their sha256,
 * and the sha256 of every file the build wrote, are kept in
 * `node_modules/.cache/storefront-build/`; a package is built again when its inputs
 * differ or when its `dist` no longer holds exactly what was written. The build is the
 * package's own tsup config, so the JavaScript is the same bytes `pnpm build` ships; only
 * the type declarations (`dts`), which nothing needs at run time and which take most of
 * a full build, are left to `pnpm build`. Declarations already in `dist` are kept. An
 * app's inputs also take in the libraries' outputs, since the server's `main` bundles them.
 * Usage: node --import tsx scripts/build-changed.ts
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const cacheDir = join(root, 'node_modules', '.cache', 'storefront-build');
const sharedInputs = ['tsup.shared.ts', 'tsconfig.base.json', 'pnpm-lock.yaml'];
const packageInputs = ['package.json', 'tsup.config.ts', 'tsconfig.json', 'src'];

interface Stamp {
  inputs: string;
  outputs: Record<string, string>;
}

/** Files under `path` (or `path` itself), relative to the root, in a fixed order. */
function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [relative(root, path)];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => relative(root, file))
    .sort();
}

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function inputsHash(dir: string): string {
  const hash = createHash('sha256');
  const paths = [
    ...sharedInputs.map((name) => join(root, name)),
    ...packageInputs.map((name) => join(dir, name)),
  ];
  for (const file of paths.flatMap(files)) {
    hash.update(`${file}\0${sha256(readFileSync(join(root, file)))}\n`);
  }
  return hash.digest('hex');
}

/** The JavaScript (and maps) in `dist`; declarations are `pnpm build`'s. */
function outputs(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const file of files(join(dir, 'dist'))) {
    if (/\.d\.ts(\.map)?$/.test(file)) continue;
    result[file] = sha256(readFileSync(join(root, file)));
  }
  return result;
}

function readStamp(file: string): Stamp | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stamp;
  } catch {
    return null;
  }
}

function sameOutputs(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * Workspace packages with a build: the libraries (`packages/`) first, then the apps,
 * whose builds may bundle the libraries' `dist` (the server's `main`).
 */
function packagesToBuild(): string[] {
  const dirs: string[] = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const dir = join(root, group, name);
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const script = (
        JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: { build?: string } }
      ).scripts?.build;
      if (script === undefined) continue;
      if (script !== 'tsup') {
        throw new Error(`${relative(root, dir)}: build script "${script}" is not "tsup"`);
      }
      dirs.push(dir);
    }
  }
  return dirs;
}

const started = Date.now();
const built: string[] = [];
// The libraries' outputs so far: an app's inputs include them, since its build may bundle them.
let libraries = '';
mkdirSync(cacheDir, { recursive: true });
try {
  for (const dir of packagesToBuild()) {
    const name = relative(root, dir);
    const library = name.startsWith('packages/');
    const stampFile = join(cacheDir, `${name.replaceAll('/', '+')}.json`);
    const inputs = library ? inputsHash(dir) : sha256(`${inputsHash(dir)}\n${sha256(libraries)}`);
    const stamp = readStamp(stampFile);
    if (stamp?.inputs === inputs && sameOutputs(stamp.outputs, outputs(dir))) {
      if (library) libraries += `${name}\0${JSON.stringify(stamp.outputs)}\n`;
      continue;
    }
    // tsup is loaded only when something is built: an up-to-date start stays quick.
    const { build } = await import('tsup');
    process.chdir(dir);
    // The JavaScript is written anew; the declarations stay (a config may hold several
    // builds, so this is done once here rather than by each build's own clean).
    for (const file of Object.keys(outputs(dir))) rmSync(join(root, file), { force: true });
    await build({
      config: join(dir, 'tsup.config.ts'),
      dts: false,
      clean: false,
      silent: true,
      // esbuild resolves entries against the directory it started in, not the current one.
      esbuildOptions(options) {
        options.absWorkingDir = dir;
      },
    });
    const written = outputs(dir);
    writeFileSync(stampFile, `${JSON.stringify({ inputs, outputs: written } satisfies Stamp)}\n`);
    if (library) libraries += `${name}\0${JSON.stringify(written)}\n`;
    built.push(name);
  }
} catch (error) {
  process.stderr.write(`build failed: ${(error as Error).message}\n`);
  process.exit(1);
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(
  built.length === 0
    ? `build: every package up to date (${seconds} s)\n`
    : `build: ${built.length} package${built.length === 1 ? '' : 's'} built in ${seconds} s (${built.join(', ')})\n`,
);
