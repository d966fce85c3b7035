/**
 * Generate `server.json`, the repository's entry for the MCP registry, from the service's
 * MCP identity and its version (`apps/server/package.json`). Prints it; `--write` writes
 * it to the repository root; `--check` exits 1 when the committed file differs (run it
 * after `changeset version`, which changes the version).
 * Usage: node --conditions=@storefront/source --import tsx scripts/server-json.ts [--write|--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serverJsonText } from '../apps/server/src/server-json.js';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'server.json');
const { version } = JSON.parse(readFileSync(join(root, 'apps/server/package.json'), 'utf8')) as {
  version: string;
};
const text = serverJsonText(version);

if (process.argv.includes('--write')) {
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
} else if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // A missing file differs like any other.
  }
  if (committed !== text) {
    process.stderr.write(
      'server.json differs from what scripts/server-json.ts generates; run it with --write\n',
    );
    process.exitCode = 1;
  }
} else {
  process.stdout.write(text);
}
