import { parseArgs } from 'node:util';
import { hasAllowance, isLiveTier, isTier, isUnmetered, LIVE_TIERS } from './metering/tiers.js';

/**
 * `storefront-admin`: the operator CLI over the running service's `/admin/*` API.
 * The token comes from `ADMIN_TOKEN` only (never a flag, never printed), the service
 * from `--url` or `STOREFRONT_URL`. Exit status: 0 ok, 1 the call failed, 2 usage.
 */

const USAGE = `Usage: npx -y pnpm@10.34.9 admin <command> [options]   (from the repository root)

Commands:
  key <keyId>                      show a key: env, tier, balance, usage, revocation
  credits <keyId> <n>              grant n credits (1 credit = $0.001) to a live key
  tier <keyId> <tier>              set a live key's plan: ${LIVE_TIERS.join(', ')}
  revoke <keyId>                   revoke a key (its calls answer 401 from then on)
  ledger <keyId> [--limit N] [--after ID]
                                   a key's ledger, oldest first (default 100 entries)
  help                             this text

Options:
  --url URL     the service (default $STOREFRONT_URL, else http://127.0.0.1:3000)
  --json        print the service's JSON answer instead of text
  --limit N     ledger entries per page, 1 to 1000
  --after ID    ledger entries after this id (the "next" of the previous page)

The operator token is read from $ADMIN_TOKEN (the one the service was started with).
Exit status: 0 ok, 1 the service refused or could not be reached, 2 usage error.`;

const DEFAULT_URL = 'http://127.0.0.1:3000';
const TIMEOUT_MS = 30_000;

/** Exit codes of the CLI. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** What the CLI reads and where it writes. */
interface AdminIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly fetch: typeof fetch;
}

class UsageError extends Error {}
class CallError extends Error {}

interface Options {
  readonly url: string | undefined;
  readonly json: boolean;
  readonly limit: string | undefined;
  readonly after: string | undefined;
  readonly help: boolean;
}

/** Run the CLI with `argv` (without node and script); resolves to the exit code. */
async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  try {
    const { command, args, options } = parse(argv);
    if (command === 'help' || options.help) {
      io.stdout(`${USAGE}\n`);
      return EXIT.ok;
    }
    if (command === undefined) {
      io.stderr(`${USAGE}\n`);
      return EXIT.usage;
    }
    const call = plan(command, args, options);
    const client = connect(options, io);
    const body = await client.request(call.method, call.path, call.body);
    io.stdout(options.json ? `${JSON.stringify(body, null, 2)}\n` : call.render(body));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`error: ${error.message}\nRun \`npx -y pnpm@10.34.9 admin help\` for usage.\n`);
      return EXIT.usage;
    }
    // A refused or failed call (CallError), or anything unforeseen: one line, exit 1.
    io.stderr(`error: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}

function parse(argv: readonly string[]): {
  command: string | undefined;
  args: string[];
  options: Options;
} {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [command, ...args] = parsed.positionals;
  const { values } = parsed;
  return {
    command,
    args,
    options: {
      url: values.url,
      json: values.json === true,
      limit: values.limit,
      after: values.after,
      help: values.help === true,
    },
  };
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      json: { type: 'boolean' },
      limit: { type: 'string' },
      after: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  readonly render: (body: Record<string, unknown>) => string;
}

/** The HTTP call a command makes, and how its answer is shown. */
function plan(command: string, args: readonly string[], options: Options): Call {
  const arity = (names: string[]) => {
    if (args.length !== names.length) {
      const shown = names.map((name) => `<${name}>`).join(' ');
      throw new UsageError(`\`${command}\` expects ${shown}`);
    }
  };
  if (command !== 'ledger' && (options.limit !== undefined || options.after !== undefined)) {
    throw new UsageError('--limit and --after belong to `ledger`');
  }
  const keyPath = (keyId: string) => `/admin/keys/${encodeURIComponent(keyId)}`;
  switch (command) {
    case 'key': {
      arity(['keyId']);
      const keyId = args[0] as string;
      return { method: 'GET', path: keyPath(keyId), render: renderKey };
    }
    case 'credits': {
      arity(['keyId', 'n']);
      const [keyId, n] = args as [string, string];
      if (!/^[1-9]\d{0,15}$/.test(n)) {
        throw new UsageError(`credits: expected a whole number of credits, got \`${n}\``);
      }
      const credits = Number(n);
      return {
        method: 'POST',
        path: `${keyPath(keyId)}/credits`,
        body: { credits },
        render: (body) => `granted ${credits} credits to ${String(body.keyId)}\n${renderKey(body)}`,
      };
    }
    case 'tier': {
      arity(['keyId', 'tier']);
      const [keyId, tier] = args as [string, string];
      if (!isLiveTier(tier)) {
        throw new UsageError(`tier: expected one of ${LIVE_TIERS.join(', ')}, got \`${tier}\``);
      }
      return {
        method: 'POST',
        path: `${keyPath(keyId)}/tier`,
        body: { tier },
        render: (body) => `${String(body.keyId)} is now on ${tier}\n${renderKey(body)}`,
      };
    }
    case 'revoke': {
      arity(['keyId']);
      const keyId = args[0] as string;
      return {
        method: 'POST',
        path: `${keyPath(keyId)}/revoke`,
        render: (body) => `revoked ${String(body.keyId)} at ${String(body.revokedAt)}\n`,
      };
    }
    case 'ledger': {
      arity(['keyId']);
      const keyId = args[0] as string;
      const query = new URLSearchParams({ keyId });
      if (options.limit !== undefined) {
        if (!/^\d{1,4}$/.test(options.limit) || !inRange(Number(options.limit), 1, 1000)) {
          throw new UsageError(
            `--limit: expected a number from 1 to 1000, got \`${options.limit}\``,
          );
        }
        query.set('limit', options.limit);
      }
      if (options.after !== undefined) {
        if (!/^\d{1,18}$/.test(options.after)) {
          throw new UsageError(`--after: expected a ledger id, got \`${options.after}\``);
        }
        query.set('after', options.after);
      }
      return { method: 'GET', path: `/admin/ledger?${query}`, render: renderLedger };
    }
    default:
      throw new UsageError(`unknown command \`${command}\``);
  }
}

interface Client {
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>>;
}

function connect(options: Options, io: AdminIo): Client {
  const raw = options.url ?? (io.env.STOREFRONT_URL?.trim() || DEFAULT_URL);
  let base: URL;
  try {
    base = new URL(raw);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new UsageError(`--url: expected an http(s) URL, got \`${raw}\``);
  }
  const origin = base.href.replace(/\/+$/, '');
  const token = io.env.ADMIN_TOKEN?.trim();
  if (!token) {
    throw new UsageError(
      'ADMIN_TOKEN is not set; export the operator token the service was started with',
    );
  }
  return {
    async request(method, path, body) {
      let response: Response;
      try {
        response = await io.fetch(`${origin}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: 'manual',
        });
      } catch (error) {
        throw new CallError(`cannot reach ${origin}: ${reason(error)}`);
      }
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new CallError(
          `http_${response.status}: ${origin} did not answer with JSON; is it a Storefront service?`,
        );
      }
      const answer = parsed as Record<string, unknown>;
      if (response.ok && answer.ok === true) return answer;
      const code = typeof answer.error === 'string' ? answer.error : `http_${response.status}`;
      let message = oneLine(
        typeof answer.message === 'string' ? answer.message : `HTTP ${response.status}`,
      );
      // The ordinary 404 of a path that does not exist: the operator API is switched off.
      if (response.status === 404 && message.startsWith('No route for')) {
        message += ' (the operator API answers only when the service has ADMIN_TOKEN set)';
      }
      throw new CallError(`${code}: ${message}`);
    },
  };
}

/** The most specific reason of a failed fetch (undici hides it in `cause`). */
function reason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${TIMEOUT_MS / 1000} s`;
  }
  let current: unknown = error;
  let text = error instanceof Error ? error.message : String(error);
  while (current instanceof Error && current.cause !== undefined) {
    current = current.cause;
    if (current instanceof Error && current.message) text = current.message;
  }
  const errors = (current as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors[0] instanceof Error) text = errors[0].message;
  return oneLine(text);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const inRange = (n: number, min: number, max: number) => n >= min && n <= max;

const show = (value: unknown): string =>
  value === null || value === undefined ? '-' : String(value);

function renderKey(body: Record<string, unknown>): string {
  const rows: [string, string][] = [
    ['keyId', show(body.keyId)],
    ['env', show(body.env)],
    ['tier', show(body.tier)],
    ['tail', show(body.tail)],
  ];
  if ('label' in body) rows.push(['label', show(body.label)]);
  rows.push(['calls', show(body.calls)]);
  if (body.env === 'test') {
    rows.push(['sandbox', `${show(body.sandbox_remaining)} of ${show(body.sandbox_cap)} left`]);
  } else {
    rows.push(['credits', show(body.credits)]);
    // The tier table says what a tier's allowance is; an unknown tier shows the number.
    const tier = isTier(body.tier) ? body.tier : null;
    const included =
      tier !== null && isUnmetered(tier)
        ? 'unmetered'
        : tier !== null && !hasAllowance(tier)
          ? 'none (spends credits only)'
          : `${show(body.included_remaining)} calls left`;
    rows.push(['included', included]);
  }
  rows.push(['created', show(body.createdAt)], ['last used', show(body.lastUsedAt)]);
  if ('revokedAt' in body) rows.push(['revoked', show(body.revokedAt)]);
  return rows.map(([name, value]) => `${name.padEnd(10)} ${value}\n`).join('');
}

interface LedgerEntry {
  readonly id: string;
  readonly route: string;
  readonly price: number;
  readonly units: number;
  readonly source: string;
  readonly charged: boolean;
  readonly outcome: string;
  readonly error: string | null;
  readonly upstreamStatus: number | null;
  readonly receiptNonce: string | null;
  readonly createdAt: string;
}

function renderLedger(body: Record<string, unknown>): string {
  const entries = (Array.isArray(body.entries) ? body.entries : []) as LedgerEntry[];
  if (entries.length === 0) return `no ledger entries for ${show(body.keyId)}\n`;
  const rows = [
    ['ID', 'TIME (UTC)', 'ROUTE', 'PRICE', 'CHARGED', 'OUTCOME', 'STATUS', 'NONCE'],
    ...entries.map((entry) => [
      entry.id,
      entry.createdAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''),
      entry.route,
      usd(entry.price),
      charged(entry),
      entry.error === null ? entry.outcome : `${entry.outcome} (${entry.error})`,
      show(entry.upstreamStatus),
      shorten(entry.receiptNonce),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  '),
  );
  if (typeof body.next === 'string') lines.push(`more: --after ${body.next}`);
  return `${lines.join('\n')}\n`;
}

/** USDC atomic units (6 decimals) as dollars, e.g. 3000 → `$0.003`. */
function usd(amount: number): string {
  const whole = Math.trunc(amount / 1_000_000);
  const fraction = String(amount % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `$${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

function charged(entry: LedgerEntry): string {
  if (!entry.charged) return 'no';
  switch (entry.source) {
    case 'credits':
      return `${entry.units} credits`;
    case 'sandbox':
      return 'sandbox call';
    case 'included':
      return 'included call';
    case 'unmetered':
      return 'unmetered';
    default:
      return 'yes';
  }
}

function shorten(nonce: string | null): string {
  if (nonce === null) return '-';
  return nonce.length > 14 ? `${nonce.slice(0, 8)}…${nonce.slice(-4)}` : nonce;
}

// A reader that stops early (`| head`) closes the pipe; that is not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
}

process.exitCode = await runAdmin(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  fetch: globalThis.fetch,
});
