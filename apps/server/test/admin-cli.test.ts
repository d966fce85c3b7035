import { execFile } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { creditsFor, tierPlans } from '../src/metering/tiers.js';
import { REGISTRY } from '../src/registry/index.js';
import { type RunningServer, startServer } from '../src/server.js';
import { DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { type Site, startSite } from './site.js';

const CLI = join(import.meta.dirname, '../src/admin-cli.ts');
const TOKEN = 'operator-token-for-tests-7f3a9c';
const WRONG_TOKEN = 'operator-token-for-tests-0000000';
const plans = tierPlans();
const fetchPrice = REGISTRY.find((route) => route.name === 'fetch')?.prices[0]?.amount as number;

const schemas: string[] = [];
let site: Site;
let server: RunningServer;
let serverOff: RunningServer;

/** A real service on an ephemeral port, its own data dir and (on PostgreSQL) its own schema. */
async function start(adminToken: string | null): Promise<RunningServer> {
  const schema = uniqueSchema();
  schemas.push(schema);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: tempDir('storefront-admin-'),
    LOG_LEVEL: 'silent',
    SAFE_FETCH_ALLOW: site.allow,
    ...(adminToken === null ? {} : { ADMIN_TOKEN: adminToken }),
    ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
  };
  return startServer(loadConfig(env), { schema, logger: pino({ level: 'silent' }) });
}

beforeAll(async () => {
  site = await startSite();
  [server, serverOff] = await Promise.all([start(TOKEN), start(null)]);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await serverOff?.close();
  await site?.close();
  for (const schema of schemas) await dropSchema(schema);
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the CLI from source as a child process, with only the environment given. */
async function cli(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await new Promise<Run>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=@storefront/source', '--import', 'tsx', CLI, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
  // Whatever happened, the token never appears in the output.
  for (const secret of [TOKEN, WRONG_TOKEN]) {
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain(secret);
  }
  return run;
}

/** The CLI against the token-protected service. */
const admin = (...args: string[]) => cli([...args, '--url', server.url], { ADMIN_TOKEN: TOKEN });

/** An answer that is an error: one `error: <code>: <message>` line, nothing on stdout. */
function expectApiError(run: Run, code: string, message: RegExp): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^error: ${code}: `));
  expect(lines[0]).toMatch(message);
}

function expectUsageError(run: Run, message: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^error: /);
  expect(run.stderr).toMatch(message);
}

async function mint(base: string, live: boolean): Promise<{ key: string; keyId: string }> {
  const response = await fetch(`${base}/api/dev/keys?live=${live}`, { method: 'POST' });
  expect(response.status).toBe(201);
  return (await response.json()) as { key: string; keyId: string };
}

async function api(
  method: 'GET' | 'POST',
  path: string,
  options: { base?: string; token?: string | null; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const token = options.token === undefined ? TOKEN : options.token;
  const response = await fetch(`${options.base ?? server.url}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function balance(key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/dev/balance`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

describe('pnpm admin: usage', () => {
  it('prints usage for `help` and --help (exit 0), and on stderr with no command (exit 2)', async () => {
    const [help, flag, bare, none] = await Promise.all([
      cli(['help']),
      cli(['key', '--help']),
      cli(['--help']),
      cli([]),
    ]);
    for (const run of [help, flag, bare]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: npx -y pnpm@10.34.9 admin <command>/);
      for (const command of ['key', 'credits', 'tier', 'revoke', 'ledger', 'help']) {
        expect(run.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
      }
      expect(run.stderr).toBe('');
    }
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(help.stdout);
  });

  it('refuses bad commands, arguments and options with exit 2 before calling the service', async () => {
    const env = { ADMIN_TOKEN: TOKEN };
    // The service is never reached: each of these names a port nothing listens on.
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command `frobnicate`/],
      [['key'], /`key` expects <keyId>/],
      [['key', 'key_a', 'key_b'], /`key` expects <keyId>/],
      [['credits', 'key_a'], /`credits` expects <keyId> <n>/],
      [['credits', 'key_a', 'ten'], /whole number of credits, got `ten`/],
      [['credits', 'key_a', '0'], /whole number of credits, got `0`/],
      [['credits', 'key_a', '1.5'], /whole number of credits, got `1.5`/],
      [['tier', 'key_a', 'gold'], /expected one of prepaid, pro, business, enterprise, got `gold`/],
      [['tier', 'key_a', 'sandbox'], /got `sandbox`/],
      [['ledger', 'key_a', '--limit', '0'], /--limit: expected a number from 1 to 1000/],
      [['ledger', 'key_a', '--limit', '1001'], /--limit: expected a number from 1 to 1000/],
      [['ledger', 'key_a', '--limit', 'many'], /--limit: expected a number from 1 to 1000/],
      [['ledger', 'key_a', '--after', 'x1'], /--after: expected a ledger id/],
      [['key', 'key_a', '--limit', '5'], /--limit and --after belong to `ledger`/],
      [['key', 'key_a', '--token', WRONG_TOKEN], /Unknown option '--token'/],
      [['key', 'key_a', '--url', 'ftp://example.com'], /--url: expected an http\(s\) URL/],
    ];
    const runs = await Promise.all(
      cases.map(([args]) => cli(args.includes('--url') ? args : [...args, '--url', dead], env)),
    );
    runs.forEach((run, i) => {
      expectUsageError(run, (cases[i] as [string[], RegExp])[1]);
    });
  });

  it('refuses to run without ADMIN_TOKEN (exit 2) and never takes the token as a flag', async () => {
    const [unset, blank] = await Promise.all([
      cli(['key', 'key_a', '--url', server.url]),
      cli(['key', 'key_a', '--url', server.url], { ADMIN_TOKEN: '  ' }),
    ]);
    expectUsageError(unset, /ADMIN_TOKEN is not set/);
    expectUsageError(blank, /ADMIN_TOKEN is not set/);
  });
});

describe('pnpm admin: commands against a running service', () => {
  it('shows a key as text, and as the service answers it with --json', async () => {
    const live = await mint(server.url, true);
    const sandbox = await mint(server.url, false);
    const [text, json, test] = await Promise.all([
      admin('key', live.keyId),
      admin('key', live.keyId, '--json'),
      admin('key', sandbox.keyId),
    ]);
    const expected = await api('GET', `/admin/keys/${live.keyId}`);
    expect(expected.status).toBe(200);

    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(new RegExp(`^keyId +${live.keyId}$`, 'm'));
    expect(text.stdout).toMatch(/^env +live$/m);
    expect(text.stdout).toMatch(/^tier +prepaid$/m);
    expect(text.stdout).toMatch(new RegExp(`^tail +${live.key.slice(-4)}$`, 'm'));
    expect(text.stdout).toMatch(/^credits +0$/m);
    expect(text.stdout).toMatch(/^included +none \(spends credits only\)$/m);
    expect(text.stdout).toMatch(/^revoked +-$/m);

    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual(expected.body);

    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/^env +test$/m);
    expect(test.stdout).toMatch(
      new RegExp(`^sandbox +${plans.sandbox.included} of ${plans.sandbox.included} left$`, 'm'),
    );
  });

  it('grants credits (adding up) and sets a tier, as the key itself then sees', async () => {
    const live = await mint(server.url, true);
    const first = await admin('credits', live.keyId, '250');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^granted 250 credits to ${live.keyId}$`, 'm'));
    expect(first.stdout).toMatch(/^credits +250$/m);
    const second = await admin('credits', live.keyId, '50');
    expect(second.stdout).toMatch(/^credits +300$/m);
    expect((await balance(live.key)).body).toMatchObject({ credits: 300, tier: 'prepaid' });

    const pro = await admin('tier', live.keyId, 'pro');
    expect(pro.code).toBe(0);
    expect(pro.stdout).toMatch(new RegExp(`^${live.keyId} is now on pro$`, 'm'));
    expect(pro.stdout).toMatch(new RegExp(`^included +${plans.pro.included} calls left$`, 'm'));
    expect((await balance(live.key)).body).toMatchObject({
      tier: 'pro',
      credits: 300,
      included_remaining: plans.pro.included,
    });

    const enterprise = await admin('tier', live.keyId, 'enterprise');
    expect(enterprise.stdout).toMatch(/^included +unmetered$/m);
    expect((await balance(live.key)).body).toMatchObject({ tier: 'enterprise' });
  });

  it('revokes a key: its own calls answer 401 and `key` shows when', async () => {
    const live = await mint(server.url, true);
    expect((await balance(live.key)).status).toBe(200);
    const run = await admin('revoke', live.keyId);
    expect(run.code).toBe(0);
    const match = new RegExp(`^revoked ${live.keyId} at (\\S+)\\n$`).exec(run.stdout);
    expect(match).not.toBeNull();
    const revokedAt = match?.[1] as string;
    expect(Number.isNaN(Date.parse(revokedAt))).toBe(false);
    expect((await balance(live.key)).status).toBe(401);
    const shown = await admin('key', live.keyId);
    expect(shown.stdout).toMatch(new RegExp(`^revoked +${revokedAt.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('prints a ledger as a table, pages it with --limit and --after, and as JSON', async () => {
    const live = await mint(server.url, true);
    const empty = await admin('ledger', live.keyId);
    expect(empty).toStrictEqual({
      code: 0,
      stdout: `no ledger entries for ${live.keyId}\n`,
      stderr: '',
    });

    expect((await admin('credits', live.keyId, '100')).code).toBe(0);
    const nonces: string[] = [];
    for (const path of ['/product', '/wiki']) {
      const response = await fetch(
        `${server.url}/buy/fetch?url=${encodeURIComponent(site.url(path))}`,
        { headers: { authorization: `Bearer ${live.key}` } },
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { ok: boolean; attestation: { nonce: string } };
      expect(body.ok).toBe(true);
      nonces.push(body.attestation.nonce);
    }
    const ledger = await api('GET', `/admin/ledger?keyId=${live.keyId}`);
    const entries = ledger.body.entries as { id: string; receiptNonce: string }[];
    expect(entries.map((entry) => entry.receiptNonce)).toStrictEqual(nonces);

    const table = await admin('ledger', live.keyId);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]?.split(/ {2,}/)).toStrictEqual([
      'ID',
      'TIME (UTC)',
      'ROUTE',
      'PRICE',
      'CHARGED',
      'OUTCOME',
      'STATUS',
      'NONCE',
    ]);
    const credits = creditsFor(fetchPrice);
    entries.forEach((entry, i) => {
      const cells = lines[i + 1]?.split(/ {2,}/);
      expect(cells?.[0]).toBe(entry.id);
      expect(cells?.[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(cells?.slice(2)).toStrictEqual([
        'fetch',
        `$${fetchPrice / 1_000_000}`,
        `${credits} credits`,
        'delivered',
        '200',
        `${entry.receiptNonce.slice(0, 8)}…${entry.receiptNonce.slice(-4)}`,
      ]);
    });
    expect((await balance(live.key)).body.credits).toBe(100 - 2 * credits);

    const [firstId, secondId] = entries.map((entry) => entry.id) as [string, string];
    const page1 = await admin('ledger', live.keyId, '--limit', '1');
    const page1Lines = page1.stdout.trimEnd().split('\n');
    expect(page1Lines).toHaveLength(3);
    expect(page1Lines[1]?.startsWith(`${firstId} `)).toBe(true);
    expect(page1Lines[2]).toBe(`more: --after ${firstId}`);
    const page2 = await admin('ledger', live.keyId, '--limit', '1', '--after', firstId);
    expect(page2.stdout.trimEnd().split('\n')[1]?.startsWith(`${secondId} `)).toBe(true);

    const json = await admin('ledger', live.keyId, '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual(ledger.body);
  });

  it('reads the service from STOREFRONT_URL, and --url wins over it', async () => {
    const live = await mint(server.url, true);
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const [fromEnv, fromFlag] = await Promise.all([
      cli(['key', live.keyId], { ADMIN_TOKEN: TOKEN, STOREFRONT_URL: `${server.url}/` }),
      cli(['key', live.keyId, '--url', server.url], { ADMIN_TOKEN: TOKEN, STOREFRONT_URL: dead }),
    ]);
    for (const run of [fromEnv, fromFlag]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^keyId +${live.keyId}$`, 'm'));
    }
  });
});

describe('pnpm admin: the service refuses', () => {
  it('prints 404, 400 and 401 answers as one `error: <code>: <message>` line, exit 1', async () => {
    const sandbox = await mint(server.url, false);
    const live = await mint(server.url, true);
    const unknown = `key_${'0'.repeat(24)}`;
    const [missing, malformed, testKey, tooMany, wrongToken] = await Promise.all([
      admin('key', unknown),
      admin('ledger', 'key_nope'),
      admin('credits', sandbox.keyId, '10'),
      admin('credits', live.keyId, '100000001'),
      cli(['key', live.keyId, '--url', server.url], { ADMIN_TOKEN: WRONG_TOKEN }),
    ]);
    expectApiError(missing, 'not_found', new RegExp(`No key \`${unknown}\``));
    expectApiError(malformed, 'invalid_params', /Expected a key id/);
    expectApiError(testKey, 'invalid_params', /is a test key; only live keys hold credits/);
    expectApiError(tooMany, 'invalid_params', /Expected `\{"credits": N\}`/);
    expectApiError(wrongToken, 'invalid_key', /needs `Authorization: Bearer <ADMIN_TOKEN>`/);
    // Nothing was granted by the refused calls.
    expect((await api('GET', `/admin/keys/${live.keyId}`)).body.credits).toBe(0);
  });

  it('says so when the service cannot be reached or is not a Storefront service (exit 1)', async () => {
    const port = await closedPort();
    const [refused, notJson] = await Promise.all([
      cli(['key', 'key_a', '--url', `http://127.0.0.1:${port}`], { ADMIN_TOKEN: TOKEN }),
      cli(['key', 'key_a', '--url', site.url('/')], { ADMIN_TOKEN: TOKEN }),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(`^error: cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED.*\\n$`),
    );
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^error: http_404: .* did not answer with JSON/);
  });

  it('explains a 404 from a service with the operator API switched off', async () => {
    const run = await cli(['key', `key_${'1'.repeat(24)}`, '--url', serverOff.url], {
      ADMIN_TOKEN: TOKEN,
    });
    expectApiError(run, 'not_found', /No route for `GET \/admin\/keys\/.*ADMIN_TOKEN set/);
  });
});

describe('the operator API', () => {
  const routes = (keyId: string): [method: 'GET' | 'POST', path: string, body?: unknown][] => [
    ['GET', `/admin/keys/${keyId}`],
    ['POST', `/admin/keys/${keyId}/credits`, { credits: 5 }],
    ['POST', `/admin/keys/${keyId}/tier`, { tier: 'pro' }],
    ['POST', `/admin/keys/${keyId}/revoke`],
    ['GET', `/admin/ledger?keyId=${keyId}`],
    ['GET', '/admin/anything-else'],
  ];

  it('answers the ordinary 404 on every /admin route when ADMIN_TOKEN is unset, token or not', async () => {
    const live = await mint(serverOff.url, true);
    for (const [method, path, body] of routes(live.keyId)) {
      for (const token of [TOKEN, null]) {
        const answer = await api(method, path, { base: serverOff.url, token, body });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.body).toMatchObject({
          ok: false,
          error: 'not_found',
          message: `No route for \`${method} ${path.split('?')[0]}\``,
        });
      }
    }
    // Nothing under /admin changed the key.
    const after = await fetch(`${serverOff.url}/api/dev/balance`, {
      headers: { authorization: `Bearer ${live.key}` },
    });
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ tier: 'prepaid', credits: 0 });
  });

  it('answers 401 on every /admin route to a wrong, partial or missing token, and changes nothing', async () => {
    const live = await mint(server.url, true);
    const wrong: (string | null)[] = [WRONG_TOKEN, TOKEN.slice(0, -1), `${TOKEN}x`, null];
    for (const [method, path, body] of routes(live.keyId)) {
      for (const token of wrong) {
        const answer = await api(method, path, { token, body });
        expect(
          answer.status,
          `${method} ${path} with ${token === null ? 'no' : 'a wrong'} token`,
        ).toBe(401);
        expect(answer.body).toMatchObject({ ok: false, error: 'invalid_key' });
      }
      // A Basic header carrying the right token is refused too.
      const basic = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Basic ${TOKEN}` },
      });
      expect(basic.status).toBe(401);
    }
    expect((await balance(live.key)).body).toMatchObject({ tier: 'prepaid', credits: 0 });

    // The same routes with the right token are answered (the key is revoked last).
    const answered = [];
    for (const [method, path, body] of routes(live.keyId)) {
      answered.push((await api(method, path, { body })).status);
    }
    expect(answered).toStrictEqual([200, 200, 200, 200, 200, 404]);
    expect((await balance(live.key)).status).toBe(401);
  });
});
