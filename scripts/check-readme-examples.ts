/**
 * Run the example of every package README (the first ```ts block under "## Use") and
 * compare what it prints with the ```text block that follows it (receipt nonces and
 * loopback ports masked). `--write` replaces the README output with what was printed.
 * Usage: node --conditions=@storefront/source --import tsx scripts/check-readme-examples.ts [--write]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const write = process.argv.includes('--write');
let failures = 0;
for (const name of readdirSync(join(root, 'packages')).sort()) {
  const readmePath = join(root, 'packages', name, 'README.md');
  if (!existsSync(readmePath)) continue;
  const readme = readFileSync(readmePath, 'utf8');
  const use = readme.indexOf('\n## Use');
  if (use === -1) continue;
  const section = readme.slice(use, readme.indexOf('\n## ', use + 1));
  const code = /(`{3,})ts\n([\s\S]*?)\n\1/.exec(section);
  const output = /(`{3,})(?:text|console)\n([\s\S]*?)\1/.exec(section);
  if (code === null || output === null) {
    console.log(`${name}: no ts example with a text output block`);
    continue;
  }
  // Run inside the package itself: it imports itself by name (self-reference through
  // `exports`) and its dependencies resolve from its own node_modules.
  const dir = mkdtempSync(join(root, 'packages', name, '.readme-'));
  const file = join(dir, 'example.ts');
  writeFileSync(file, code[2]!);
  let printed: string;
  try {
    printed = execFileSync(
      process.execPath,
      ['--conditions=@storefront/source', '--import', 'tsx', file],
      { cwd: join(root, 'packages', name), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    printed = `ERROR: ${(error as { stderr?: string }).stderr ?? String(error)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (mask(printed) === mask(output[2]!)) {
    console.log(`${name}: ok`);
  } else {
    failures++;
    console.log(`${name}: output differs`);
    if (write) {
      const start = use + section.indexOf(output[0]);
      const next = `${readme.slice(0, start)}${output[0].replace(output[2]!, printed)}${readme.slice(start + output[0].length)}`;
      writeFileSync(readmePath, next);
    } else {
      console.log(`--- README\n${output[2]}--- printed\n${printed}`);
    }
  }
}
process.exitCode = failures > 0 ? 1 : 0;

/** Values that differ on every run by design: receipt nonces and loopback ports. */
function mask(text: string): string {
  return text
    .replace(/nonce:0x[0-9a-f]{32}/g, 'nonce:0x…')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
}
