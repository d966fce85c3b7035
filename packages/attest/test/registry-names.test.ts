import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { notarize } from '@storefront/notarize';
import { describe, expect, it } from 'vitest';
import { HOW_TO_VERIFY } from '../src/index.js';

/**
 * Names we do not own on the public npm registry must never be what we tell users to
 * run or install: the `@storefront` scope belongs to another organisation, and no
 * `storefront-verify` package there is ours (`npx` would run whatever is published).
 */
const FORBIDDEN: readonly RegExp[] = [
  /\bnpx\s+(?:-\S+\s+)*storefront-verify\b/,
  /\bnpx\s+(?:-\S+\s+)*@storefront\//,
  /\bpnpm\s+(?:add|install|i|dlx)\s+(?:-\S+\s+)*@storefront\//,
  /\bnpm\s+(?:i|install|exec)\s+(?:-\S+\s+)*@storefront\//,
  /\byarn\s+(?:add|dlx)\s+(?:-\S+\s+)*@storefront\//,
];

const ROOT = resolve(import.meta.dirname, '../../..');
const SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules', 'dist', '.git', 'coverage']);
const TEXT_FILES = /\.(?:md|ts|js|json|txt|ya?ml)$/;
const SELF = resolve(import.meta.filename);

/** Every text file of the repository that a user may read or that builds an answer. */
function repositoryFiles(dir = ROOT, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') && entry.name !== '.changeset') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) repositoryFiles(path, out);
    } else if (TEXT_FILES.test(entry.name) && path !== SELF && entry.name !== 'pnpm-lock.yaml') {
      out.push(path);
    }
  }
  return out;
}

function offences(text: string): string[] {
  return FORBIDDEN.filter((pattern) => pattern.test(text)).map((pattern) => pattern.source);
}

describe('names we do not own', () => {
  it('catches each form it is meant to catch', () => {
    for (const line of [
      'npx storefront-verify result.json',
      'npx -y storefront-verify x',
      'npx @storefront/attest storefront-verify --help',
      'pnpm add @storefront/attest',
      'pnpm add -D @storefront/core',
      'npm i @storefront/core',
      'npm install --save @storefront/core',
      'yarn add @storefront/core',
    ]) {
      expect([line, offences(line).length > 0]).toStrictEqual([line, true]);
    }
    for (const line of [
      'node packages/attest/bin/storefront-verify.js result.json',
      'pnpm exec storefront-verify result.json',
      '"@storefront/attest": "workspace:*"',
      'pnpm add /path/to/storefront-attest-0.0.0.tgz',
    ]) {
      expect([line, offences(line)]).toStrictEqual([line, []]);
    }
  });

  it('appears in no README, source, fixture or document of the repository', () => {
    const files = repositoryFiles();
    expect(files.filter((file) => file.endsWith('README.md')).length).toBeGreaterThan(15);
    const found = files.flatMap((file) =>
      offences(readFileSync(file, 'utf8')).map((pattern) => `${relative(ROOT, file)}: ${pattern}`),
    );
    expect(found).toStrictEqual([]);
  });

  it('is not what a receipt or a notarization statement tells users to run', () => {
    const statement = notarize({ content: 'x', witnessedAt: '2026-01-01T00:00:00.000Z' });
    if (!statement.ok) throw new Error(statement.error);
    for (const howTo of [HOW_TO_VERIFY, statement.data.verify.howTo]) {
      expect(offences(howTo)).toStrictEqual([]);
      // The verifier it names is the one shipped in this repository, and plain ethers.
      const path = /node (packages\/attest\/bin\/storefront-verify\.js) /.exec(howTo)?.[1];
      expect(path).toBeDefined();
      expect(existsSync(join(ROOT, path as string))).toBe(true);
      expect(howTo).toMatch(/ethers\.verifyMessage\(/);
    }
  });
});
