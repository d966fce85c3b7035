import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.js';

/**
 * Build the Go program in directory `dir` (a checker written against Go's reference
 * implementations, `golang.org/x/mod/sumdb/note` and `sumdb/tlog`) and return its path; in
 * GOPATH mode, since Debian's golang-golang-x-mod-dev puts x/mod under /usr/share/gocode
 * and nothing is downloaded. Null when Go is not installed; in CI that is an error, since
 * CI must run the Go checks.
 */
export function buildGoCheck(dir: URL): string | null {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
  } catch {
    if (process.env.CI) {
      throw new Error(
        'go is not installed: CI must run the Go checks (apt-get install golang-go golang-golang-x-mod-dev)',
      );
    }
    return null;
  }
  const work = tempDir('storefront-go-');
  const binary = join(work, 'check');
  execFileSync('go', ['build', '-o', binary, '.'], {
    cwd: fileURLToPath(dir),
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: '/usr/share/gocode',
      GOFLAGS: '',
      GOCACHE: join(work, 'gocache'),
    },
    stdio: 'pipe',
  });
  return binary;
}
