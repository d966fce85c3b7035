import { readFileSync } from 'node:fs';
import { isAddress } from 'ethers';
import { ENVELOPE_FIELDS } from './fields.js';
import { checkLogInclusion, type LoggedReceipt, type LogInclusion, type LogProof } from './log.js';
import { type ManifestVerification, verifyManifest } from './manifest.js';
import { ROUTE_NAME } from './message.js';
import { RECEIPT_ROUTES } from './rules.js';
import type { ServiceAttestationDocument } from './types.js';
import { type PinnedKeys, type Verification, verifyReceipt } from './verifier.js';

/** Exit codes of `storefront-verify`. */
export const EXIT = { valid: 0, invalid: 1, badInput: 2 } as const;

const USAGE = `Usage: storefront-verify [RESULT.json | -] --pin <ADDRESS | FILE | URL> [--route NAME]
                         [--log-proof PROOF.json [--log-key VKEY]]
       storefront-verify JOB.json --pages PAGES.json --pin <ADDRESS | FILE | URL>

Verify a Storefront receipt offline. RESULT is a whole result (or {text, attestation})
read from a file, or from standard input when it is "-" or omitted. --pin is the signer
key to trust: an address (0x + 40 hex), or a /.well-known/service-attestation document
as a file or an http(s) URL; a document's receiptRules are used for the routes it
lists. The text is re-derived from the result's fields by the rule of the route the
receipt names (built in: ${RECEIPT_ROUTES.join(', ')}), and the fields it covers are
listed. --route names the route you expect: a receipt signed for another route fails;
for an old storefront-attest/1 receipt, which names none, it replaces telling the
route from the result's shape.

With --pages, RESULT is a crawl job's manifest (or the job answer that holds it) and
PAGES.json its pages (an array, or one or more /jobs/{id}/pages answers in a JSON
array): every page's receipt is checked, and the Merkle root of the pages' content
hashes is compared with the one the manifest signs.

With --log-proof, PROOF.json is the answer of the service's /log/proof?receipt=<hash>
for this receipt: the checkpoint it holds must be signed by the log key (--log-key, a
signed-note verifier key; by default the log.vkey of the --pin document) and the
inclusion proof must lead from the receipt's log entry to the checkpoint's root.

Exit status: 0 valid, 1 not valid, 2 bad input.`;

/** Where the CLI reads and writes; injectable so tests can run it in-process. */
export interface CliIo {
  readonly stdin: () => Promise<string>;
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly fetchText: (url: string) => Promise<string>;
}

/** Run `storefront-verify` with `argv` (without node and script); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: Args;
  try {
    if (argv.includes('-h') || argv.includes('--help')) {
      io.stdout(USAGE);
      return EXIT.valid;
    }
    args = parseArgs(argv);
  } catch (error) {
    io.stderr((error as Error).message);
    return EXIT.badInput;
  }

  let result: unknown;
  let pinned: PinnedKeys;
  try {
    const raw = args.input === '-' ? await io.stdin() : readFileSync(args.input, 'utf8');
    result = parseJson(raw, args.input === '-' ? 'standard input' : args.input);
    pinned = await loadPin(args.pin, io);
  } catch (error) {
    io.stderr(`storefront-verify: ${(error as Error).message}`);
    return EXIT.badInput;
  }

  if (args.pages !== undefined) {
    let checked: ManifestVerification;
    try {
      const pages = pagesOf(parseJson(readFileSync(args.pages, 'utf8'), args.pages));
      const manifest = isRecord(result) && isRecord(result.manifest) ? result.manifest : result;
      checked = verifyManifest(manifest, pages, pinned);
    } catch (error) {
      io.stderr(`storefront-verify: ${(error as Error).message}`);
      return EXIT.badInput;
    }
    for (const line of manifestReport(checked)) io.stdout(line);
    return checked.valid ? EXIT.valid : EXIT.invalid;
  }

  let verification: Verification;
  try {
    verification = verifyReceipt(
      result,
      pinned,
      args.route === undefined ? {} : { route: args.route },
    );
  } catch (error) {
    io.stderr(`storefront-verify: ${(error as Error).message}`);
    return EXIT.badInput;
  }
  for (const line of report(verification)) io.stdout(line);
  if (args.logProof === undefined) return verification.valid ? EXIT.valid : EXIT.invalid;

  let inclusion: LogInclusion;
  try {
    const found = parseJson(readFileSync(args.logProof, 'utf8'), args.logProof) as LogProof;
    const vkey = args.logKey ?? logKeyOf(pinned);
    const receipt = isRecord(result) && isRecord(result.attestation) ? result.attestation : null;
    if (receipt === null)
      throw new Error('the result holds no `attestation` to look up in the log');
    inclusion = checkLogInclusion(receipt as unknown as LoggedReceipt, found, vkey);
  } catch (error) {
    io.stderr(`storefront-verify: ${(error as Error).message}`);
    return EXIT.badInput;
  }
  io.stdout(logLine(inclusion));
  const valid = verification.valid && inclusion.valid;
  io.stdout(valid ? 'valid, and in the log' : 'NOT VALID');
  return valid ? EXIT.valid : EXIT.invalid;
}

/** The log key of a pinned service-attestation document (`log.vkey`). */
function logKeyOf(pinned: PinnedKeys): string {
  const log = typeof pinned === 'object' ? (pinned as { log?: { vkey?: unknown } }).log : undefined;
  if (typeof log?.vkey !== 'string') {
    throw new Error('--log-proof needs the log key: --log-key, or a --pin document with log.vkey');
  }
  return log.vkey;
}

/** The line printed for a log inclusion check. */
function logLine(inclusion: LogInclusion): string {
  return inclusion.valid
    ? `log          pass  entry ${inclusion.index} of ${inclusion.origin} at size ${inclusion.size}: the inclusion proof leads to the signed checkpoint`
    : `log          FAIL  ${inclusion.problem}`;
}

/** The lines printed for a verification: one per check, what it covers, then the verdict. */
export function report(v: Verification): string[] {
  const mark = (pass: boolean | null) => (pass === null ? 'n/a ' : pass ? 'pass' : 'FAIL');
  const { contentHash, signature, pinnedKey, envelope, fields } = v.checks;
  const lines = [
    `contentHash  ${mark(contentHash)}  sha256(text) ${contentHash ? 'matches' : 'does not match'} the signed contentHash`,
    `signature    ${mark(signature)}  ${signature ? `EIP-191 signer ${v.signer}` : `no valid signature by \`address\` (recovered ${v.signer ?? 'none'})`}`,
    `pinnedKey    ${mark(pinnedKey)}  signer is ${pinnedKey ? '' : 'not '}a pinned key`,
    `envelope     ${mark(envelope)}  ${envelopeLine(v)}`,
    `fields       ${mark(fields)}  ${fieldsLine(v)}`,
    `covers       ${v.covered.join(', ')}`,
    `not covered  ${v.uncovered.length === 0 ? '(nothing)' : v.uncovered.join(', ')}`,
  ];
  for (const problem of v.problems) lines.push(`  - ${problem}`);
  for (const note of v.notes) lines.push(`  note: ${note}`);
  lines.push(v.valid ? `valid (${v.keyId})` : 'NOT VALID');
  return lines;
}

/** The lines printed for a crawl job: the manifest's receipt, the pages, the root, the verdict. */
export function manifestReport(v: ManifestVerification): string[] {
  const mark = (pass: boolean) => (pass ? 'pass' : 'FAIL');
  const invalid = v.pages.invalid.length;
  const lines = [
    `manifest     ${mark(v.manifest.valid)}  ${v.manifest.valid ? `signed by ${v.manifest.signer}` : 'its receipt does not verify'}`,
    `pages        ${mark(invalid === 0)}  ${v.pages.checked} read, ${invalid === 0 ? 'every receipt verifies' : `${invalid} do not verify`}`,
    `merkleRoot   ${mark(v.merkleRoot)}  ${v.merkleRoot ? 'the pages give the signed root' : 'the pages do not give the signed root'}`,
  ];
  for (const problem of v.problems) lines.push(`  - ${problem}`);
  lines.push(v.valid ? `valid (${v.manifest.keyId})` : 'NOT VALID');
  return lines;
}

/** Pages from a file: an array of pages, or an array (or one) of `/jobs/{id}/pages` answers. */
function pagesOf(value: unknown): unknown[] {
  const answers = Array.isArray(value) ? value : [value];
  if (answers.every((item) => isRecord(item) && Array.isArray(item.pages))) {
    return answers.flatMap((item) => (item as { pages: unknown[] }).pages);
  }
  if (Array.isArray(value)) return value;
  throw new Error('--pages holds neither an array of pages nor /jobs/{id}/pages answers');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Which of url, status, fetchedAt, the page verdict and the slice were compared, and the signed
 * value of the envelope fields that were not.
 */
function envelopeLine(v: Verification): string {
  if (v.checks.envelope === null) return 'url, status and fetchedAt not in the input';
  const compared: string[] = ENVELOPE_FIELDS.filter((key) => v.covered.includes(key));
  if (v.covered.includes('page')) compared.push(`the page verdict (${pageOf(v)})`);
  if (v.covered.includes('slice')) compared.push(`the slice (${sliceOf(v)})`);
  const absent = ENVELOPE_FIELDS.filter((key) => !v.covered.includes(key));
  const head = v.checks.envelope
    ? `${list(compared)} ${compared.length === 1 ? 'matches' : 'match'} the signed message`
    : `${list(compared)} compared: not all match the signed message`;
  if (absent.length === 0) return head;
  const signed = v.signed;
  const values =
    signed === null
      ? ''
      : ` (signed ${absent.map((key) => `${key} ${signed[key] ?? 'none'}`).join(', ')})`;
  return `${head}; ${list(absent)} not in the result${values}`;
}

/** The signed slice as one reads it: `characters 0 to 20000 of 84210`. */
function sliceOf(v: Verification): string {
  const slice = v.signed?.slice ?? null;
  return slice === null
    ? 'none signed'
    : `characters ${slice.offset} to ${slice.offset + slice.length} of ${slice.total}`;
}

/** The signed verdict as one reads it: `content, page-verdict/1`. */
function pageOf(v: Verification): string {
  const page = v.signed?.page ?? null;
  return page === null ? 'none signed' : `${page.verdict}, ${page.rubric}`;
}

function fieldsLine(v: Verification): string {
  const route = v.route === null ? 'the result' : `the /buy/${v.route} result`;
  if (v.checks.fields === null) {
    const bare =
      v.uncovered.length === 0 &&
      v.covered.every(
        (key) => key === 'text' || (ENVELOPE_FIELDS as readonly string[]).includes(key),
      );
    if (v.route === null || bare) return 'no field besides text to compare';
    return v.rule === null
      ? `no receipt rule known for /buy/${v.route}: its fields were not compared`
      : `no field of ${route} restates text`;
  }
  return v.checks.fields
    ? `text re-derived from the fields of ${route} matches`
    : `the fields of ${route} do not give the signed text`;
}

function list(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

interface Args {
  readonly input: string;
  readonly pin: string;
  readonly route: string | undefined;
  readonly pages: string | undefined;
  readonly logProof: string | undefined;
  readonly logKey: string | undefined;
}

function parseArgs(argv: readonly string[]): Args {
  let input: string | undefined;
  let pin: string | undefined;
  let route: string | undefined;
  let pages: string | undefined;
  let logProof: string | undefined;
  let logKey: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--log-proof' || arg === '--log-key') {
      const value = argv[++i];
      if (value === undefined)
        throw new Error(`storefront-verify: ${arg} needs a value\n\n${USAGE}`);
      if (arg === '--log-proof') logProof = value;
      else logKey = value;
    } else if (arg.startsWith('--log-proof=')) {
      logProof = arg.slice('--log-proof='.length);
    } else if (arg.startsWith('--log-key=')) {
      logKey = arg.slice('--log-key='.length);
    } else if (arg === '--pages') {
      pages = argv[++i];
      if (pages === undefined)
        throw new Error(`storefront-verify: --pages needs a file\n\n${USAGE}`);
    } else if (arg.startsWith('--pages=')) {
      pages = arg.slice('--pages='.length);
    } else if (arg === '--pin' || arg === '-p') {
      pin = argv[++i];
      if (pin === undefined) throw new Error(`storefront-verify: --pin needs a value\n\n${USAGE}`);
    } else if (arg.startsWith('--pin=')) {
      pin = arg.slice('--pin='.length);
    } else if (arg === '--route') {
      route = argv[++i];
      if (route === undefined)
        throw new Error(`storefront-verify: --route needs a value\n\n${USAGE}`);
    } else if (arg.startsWith('--route=')) {
      route = arg.slice('--route='.length);
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new Error(`storefront-verify: unknown option \`${arg}\`\n\n${USAGE}`);
    } else if (input === undefined) {
      input = arg;
    } else {
      throw new Error(
        `storefront-verify: expected one result, got \`${input}\` and \`${arg}\`\n\n${USAGE}`,
      );
    }
  }
  if (pin === undefined || pin === '')
    throw new Error(`storefront-verify: --pin is required\n\n${USAGE}`);
  const name = route?.replace(/^\/?buy\//, '');
  if (name !== undefined && !ROUTE_NAME.test(name)) {
    throw new Error(
      `storefront-verify: --route \`${route}\` is not a route name (lower-case letters, digits and -, as in extract or /buy/extract)\n\n${USAGE}`,
    );
  }
  return { input: input ?? '-', pin, route: name, pages, logProof, logKey };
}

async function loadPin(pin: string, io: CliIo): Promise<PinnedKeys> {
  if (isAddress(pin)) return pin;
  let raw: string;
  if (/^https?:\/\//i.test(pin)) {
    raw = await io.fetchText(pin);
  } else {
    try {
      raw = readFileSync(pin, 'utf8');
    } catch {
      throw new Error(
        `--pin \`${pin}\` is neither an address (0x + 40 hex), a readable file, nor an http(s) URL`,
      );
    }
  }
  const doc = parseJson(raw, pin);
  if (
    typeof doc !== 'object' ||
    doc === null ||
    typeof (doc as { address?: unknown }).address !== 'string'
  ) {
    throw new Error(`${pin} is not a service-attestation document (no \`address\`)`);
  }
  return doc as ServiceAttestationDocument;
}

function parseJson(raw: string, where: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`${where} is not JSON`);
  }
}

/** The real process's IO. */
export const processIo: CliIo = {
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  fetchText: async (url) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return response.text();
  },
};
