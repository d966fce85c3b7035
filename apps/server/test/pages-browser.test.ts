/**
 * The pages in a real browser: Debian's Chromium driven by playwright-core, with the
 * pages' Content-Security-Policy enforced. A newcomer's path (try the free route, mint
 * a key, check it, subscribe, top up, verify a result and see a tampered one refused),
 * then axe-core on every page and a screenshot of each in `test-artifacts/pages/`.
 *
 * Without `/usr/bin/chromium` (or `CHROMIUM_PATH`) the file is skipped locally and
 * fails in CI (`CI=true`), where `.ci/run` installs Debian's `chromium`. The billing
 * steps (subscribe, pay, top up) go through the development payment processor: its
 * checkout page, its Pay form and its signed webhook to this same app.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Attestation, receiptHash } from '@storefront/attest';
import { cosignatureVerifier } from '@storefront/tlog';
import { startWitness } from '@storefront/witness';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logState, sequence } from '../src/log/store.js';
import { submitCheckpoint } from '../src/log/witnesses.js';
import { PAGE_BUDGET_BYTES, PAGES } from '../src/pages/layout.js';
import { testApp } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = process.env.CI === 'true';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts', 'pages');
/** The launch flags: no sandbox (root in containers), no GPU, nothing fetched in the background. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
/** What the test reads of the page's globals (the test is compiled without the DOM types). */
interface BrowserGlobals {
  readonly navigator: { readonly clipboard: { readText(): Promise<string> } };
  readonly document: { readonly activeElement: { readonly id: string } };
}

/** How long a poll waits for the page (a busy two-core machine can be slow). */
const POLL = { timeout: 30_000 };
/** axe-core's browser build, served to the pages under this same-origin path by the test. */
const AXE_PATH = '/__test/axe.min.js';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'));

if (!HAVE_CHROMIUM) {
  const message = `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`;
  if (IN_CI) {
    it('runs the browser tests in CI', () => {
      throw new Error(message);
    });
  } else {
    console.warn(`pages-browser.test.ts skipped: ${message}`);
  }
}

let server: http.Server;
let base: string;
let t: Awaited<ReturnType<typeof testApp>>;
let context: BrowserContext;
let userDataDir: string;

/** Start the app on a loopback port whose address is its public base URL. */
async function startServer(): Promise<void> {
  server = http.createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await testApp({}, { publicBaseUrl: base });
  server.on('request', t.app);
}

if (HAVE_CHROMIUM) {
  // Start-up is measured in seconds of CPU on a busy machine: size the hooks for it.
  beforeAll(async () => {
    await startServer();
    mkdirSync(ARTIFACTS, { recursive: true });
    userDataDir = mkdtempSync(join(tmpdir(), 'storefront-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1100, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    context.setDefaultTimeout(60_000);
    await context.route(`${base}${AXE_PATH}`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: AXE_SOURCE }),
    );
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await new Promise((resolve) => server?.close(resolve));
    await t?.dispose();
  }, 60_000);
}

/** A new tab that records CSP refusals and errors of the page's own scripts. */
async function tab(): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    problems.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
  return { page, problems, requests };
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Mint a key on /developers with the button named `label`; the key shown once. */
async function mint(page: Page, label: string): Promise<string> {
  await page.goto(`${base}/developers`);
  await page.getByRole('button', { name: label }).click();
  const key = (await page.locator('#minted-key').textContent()) ?? '';
  await expect
    .poll(() => page.locator('#mint-result').textContent(), POLL)
    .toContain('Save it now');
  return key;
}

/** The balance rows shown on /developers, as `{term: value}`. */
async function balance(page: Page): Promise<Record<string, string>> {
  await page.locator('#balance-rows').waitFor();
  const terms = await page.locator('#balance-rows dt').allTextContents();
  const values = await page.locator('#balance-rows dd').allTextContents();
  return Object.fromEntries(terms.map((term, i) => [term, values[i] ?? '']));
}

/** The balance rows once they match `expected` (a check may still be on its way). */
async function balanceMatching(page: Page, expected: Record<string, unknown>): Promise<void> {
  await expect.poll(() => balance(page), POLL).toMatchObject(expected);
}

/**
 * Pay on the development checkout page, which must show `item` and `amount`: its Pay
 * button submits a form to the checkout, which answers 303 to /developers.
 */
async function pay(page: Page, item: string, amount: string, name: string): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/dev-checkout/cs_dev_'));
  const details = page.locator('dl');
  expect(await details.textContent()).toContain(item);
  expect(await details.textContent()).toContain(amount);
  await screenshot(page, name);
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/developers'),
    page.getByRole('button', { name: `Pay ${amount}` }).click(),
  ]);
}

/** One paid call with `key`, outside the browser: 8 credits, or one call of an allowance. */
async function notarize(key: string): Promise<void> {
  const res = await fetch(`${base}/buy/notarize?content=hello`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** The usage chart's accessible name once it is drawn. */
async function chartSummary(page: Page): Promise<string | null> {
  return page.locator('#usage-chart').getAttribute('aria-label');
}

describe.skipIf(!HAVE_CHROMIUM)('a newcomer in the browser', { timeout: 120_000 }, () => {
  it('tries /buy/signal on /, verifies the signed result on /verify and sees tampering refused', async () => {
    const { page, problems, requests } = await tab();
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Call /buy/signal' }).click();
    const signed = page.locator('#try-result .ok');
    await signed.waitFor();
    expect(await signed.textContent()).toContain(`Signed by ${t.deps.signer.address}`);
    const result = JSON.parse((await page.locator('#try-json').textContent()) ?? '') as Record<
      string,
      unknown
    > & { text: string; attestation: { signature: string } };
    expect(result).toMatchObject({ ok: true, sample: true, url: `${base}/buy/signal` });
    await screenshot(page, 'home-tried');

    // From here on the service sees the page, its assets and one request for the key.
    requests.length = 0;
    await page.getByRole('link', { name: 'Verify this result in your browser' }).click();
    await page.waitForURL(`${base}/verify`);
    const area = page.locator('#result-json');
    const verdict = page.locator('#verdict');
    expect(JSON.parse(await area.inputValue())).toStrictEqual(result);
    await page.getByRole('button', { name: 'Verify' }).click();
    await verdict.waitFor();
    expect(await verdict.textContent()).toContain(
      `Valid: signed by the pinned key ${t.deps.signer.address}`,
    );
    await screenshot(page, 'verify-valid');

    // One character more in `text`: its sha256 is no longer the signed one.
    await area.fill(JSON.stringify({ ...result, text: `${result.text} ` }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => verdict.textContent(), POLL).toContain('Refused');
    expect(await page.locator('#reasons').textContent()).toMatch(
      /sha256\(text\) is 0x[0-9a-f]{64}, not 0x/,
    );
    await screenshot(page, 'verify-refused');

    // One hex digit of the signature changed: another signer, or none, is recovered.
    const sig = result.attestation.signature;
    const forged = `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}`;
    await area.fill(
      JSON.stringify({ ...result, attestation: { ...result.attestation, signature: forged } }),
    );
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => page.locator('#reasons').textContent(), POLL)
      .toMatch(/not a valid 65-byte EIP-191 signature|signed by 0x[0-9a-fA-F]{40}, not by/);
    expect(await verdict.textContent()).toContain('Refused');

    // The untouched result again, this time chosen as a file.
    await page.locator('#result-file').setInputFiles({
      name: 'result.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(result)),
    });
    await expect.poll(() => area.inputValue(), POLL).toBe(JSON.stringify(result));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => verdict.textContent(), POLL).toContain('Valid');

    // The pinned key is fetched once; the result itself never leaves the browser.
    const own = requests.filter((line) => line.includes(base));
    expect(
      own.filter((line) => !/ \S+\/(verify|assets\/[a-z]+\.(css|js)(\?v=[0-9a-f]+)?)$/.test(line)),
    ).toStrictEqual([`GET ${base}/.well-known/service-attestation`]);
    expect(problems).toStrictEqual([]);
    await page.close();
  });

  it('checks a receipt’s log inclusion proof on /verify, with the log key, and refuses an edited proof', async () => {
    const minted = (await (await fetch(`${base}/api/dev/keys`, { method: 'POST' })).json()) as {
      key: string;
    };
    const results: { attestation: Attestation }[] = [];
    for (const content of ['in the log', 'and another', 'and a third']) {
      const paid = await fetch(`${base}/buy/notarize?content=${encodeURIComponent(content)}`, {
        headers: { authorization: `Bearer ${minted.key}` },
      });
      results.push((await paid.json()) as { attestation: Attestation });
    }
    const result = results[0] as { attestation: Attestation };
    await sequence(t.deps.db, t.deps.logKey);
    // A witness in this process cosigns the checkpoint; the pinned document names it.
    const witness = await startWitness({
      name: 'witness.example/pages',
      logs: [t.deps.logKey.vkey],
      dataDir: mkdtempSync(join(tmpdir(), 'storefront-pages-witness-')),
    });
    const logWitness = {
      url: witness.url,
      vkey: witness.vkey,
      verifier: cosignatureVerifier(witness.vkey),
    };
    t.deps.addWitness(logWitness);
    const state = await logState(t.deps.db);
    const cosigned = await submitCheckpoint(
      t.deps.db,
      t.deps.logKey.verifier,
      logWitness,
      state.checkpoint as string,
      state.size,
    );
    expect(cosigned.kind).toBe('cosigned');
    await witness.close();
    const proof = (await (
      await fetch(`${base}/log/proof?receipt=${receiptHash(result.attestation)}`)
    ).json()) as { index: number; proof: string[] };
    expect(proof.proof.length).toBeGreaterThan(0);

    const { page, problems } = await tab();
    await page.goto(`${base}/verify`);
    await page.locator('#result-json').fill(JSON.stringify(result));
    await page.locator('#log-proof').fill(JSON.stringify(proof));
    await page.getByRole('button', { name: 'Verify' }).click();
    const logged = page.locator('#log-verdict');
    await expect
      .poll(() => logged.textContent(), POLL)
      .toContain(`In the log: entry ${proof.index} of`);
    expect(await logged.textContent()).toContain(
      'Cosigned by the witness witness.example/pages at',
    );
    await screenshot(page, 'verify-logged');

    // The witness's cosignature edited by one character: the page refuses it.
    const cosignedNote = (proof as unknown as { checkpoint: string }).checkpoint;
    const at = cosignedNote.lastIndexOf('witness.example/pages ') + 40;
    const forged = {
      ...proof,
      checkpoint: `${cosignedNote.slice(0, at)}${cosignedNote[at] === 'A' ? 'B' : 'A'}${cosignedNote.slice(at + 1)}`,
    };
    await page.locator('#log-proof').fill(JSON.stringify(forged));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => logged.textContent(), POLL)
      .toContain('the cosignature of the witness witness.example/pages does not verify');
    await page.locator('#log-proof').fill(JSON.stringify(proof));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => logged.textContent(), POLL).toContain('Cosigned by the witness');

    // One character of the audit path changed: the proof no longer leads to the root.
    const [first = '', ...rest] = proof.proof;
    const edited = {
      ...proof,
      proof: [`${first[0] === 'A' ? 'B' : 'A'}${first.slice(1)}`, ...rest],
    };
    await page.locator('#log-proof').fill(JSON.stringify(edited));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => logged.textContent(), POLL).toContain('Not in the log');
    expect(problems).toStrictEqual([]);
    await page.close();
  });

  it('mints a test key on /developers, shown once with a copy button, and checks its balance', async () => {
    const { page, problems } = await tab();
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'Developers', exact: true }).click();
    await page.waitForURL(`${base}/developers`);
    const key = await mint(page, 'Mint a test key');
    expect(key).toMatch(/^mk_test_/);
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText(),
          ),
        POLL,
      )
      .toBe(key);
    // The balance form is filled with the key just minted.
    expect(await page.locator('#balance-key').inputValue()).toBe(key);
    await page.getByRole('button', { name: 'Check the balance' }).click();
    const rows = await balance(page);
    expect(rows).toMatchObject({
      key: `…${key.slice(-4)} (test)`,
      tier: 'sandbox',
      calls: '0',
      'sandbox calls left': '100 of 100',
    });
    // GET /api/dev/usage answers 30 days without a call: no chart, a sentence.
    await expect.poll(() => page.locator('#usage').textContent(), POLL).toBe('No calls yet.');
    await screenshot(page, 'developers-balance');
    expect(problems).toStrictEqual([]);
    await page.close();
  });

  it('subscribes a live key to pro on /pricing, pays at checkout and sees the tier, allowance and usage', async () => {
    const { page, problems } = await tab();
    const key = await mint(page, 'Mint a live key');
    expect(key).toMatch(/^mk_live_/);
    await page.getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.waitForURL(`${base}/pricing`);
    expect(await page.locator('#subscribe-key').inputValue()).toBe(key);
    await page.getByRole('button', { name: /^Subscribe to pro/ }).click();
    await pay(page, 'The pro plan, billed monthly', '$29.00 per month', 'checkout-pro');
    expect(new URL(page.url()).searchParams.get('upgraded')).toBe('pro');
    expect(await page.locator('#upgraded').textContent()).toContain('Subscribed to pro');
    // The key is known on this tab: its balance is shown without a click.
    await balanceMatching(page, {
      key: `…${key.slice(-4)} (live)`,
      tier: 'pro',
      'allowance left': '50000',
      credits: '0',
    });
    expect((await balance(page)).subscription).toMatch(/^pro, active, renews \d{4}-\d{2}-\d{2}$/);
    await expect.poll(() => page.locator('#usage').textContent(), POLL).toBe('No calls yet.');

    // One call from the allowance: the balance and the usage chart show it.
    await notarize(key);
    await page.getByRole('button', { name: 'Check the balance' }).click();
    await balanceMatching(page, { tier: 'pro', 'allowance left': '49999', calls: '1' });
    await expect.poll(() => chartSummary(page), POLL).toMatch(/: 1 calls, 0 credits$/);
    await screenshot(page, 'developers-upgraded');
    expect(problems).toStrictEqual([]);
    await page.close();
  });

  it('tops up a live key on /developers, pays at checkout and sees the credits and usage', async () => {
    const { page, problems } = await tab();
    const key = await mint(page, 'Mint a live key');
    expect(await page.locator('#topup-key').inputValue()).toBe(key);
    await page.locator('#topup-usd').selectOption('10');
    await page.getByRole('button', { name: 'Go to checkout' }).click();
    await pay(page, '10,000 credits', '$10.00', 'checkout-topup');
    expect(new URL(page.url()).searchParams.get('topup')).toBe('10000');
    expect(await page.locator('#topped-up').textContent()).toContain('Paid: 10,000 credits');
    await balanceMatching(page, {
      key: `…${key.slice(-4)} (live)`,
      tier: 'prepaid',
      credits: '10000',
    });
    expect(await balance(page)).not.toHaveProperty('subscription');

    // One call of /buy/notarize spends 8 credits: the balance and the chart show them.
    await notarize(key);
    await page.getByRole('button', { name: 'Check the balance' }).click();
    await balanceMatching(page, { credits: '9992', calls: '1' });
    await expect.poll(() => chartSummary(page), POLL).toMatch(/: 1 calls, 8 credits$/);
    await screenshot(page, 'developers-topped-up');
    expect(problems).toStrictEqual([]);
    await page.close();
  });
});

describe.skipIf(!HAVE_CHROMIUM)(
  'accessibility of every page (axe-core)',
  { timeout: 120_000 },
  () => {
    const results: Record<string, unknown> = {};

    afterAll(() => {
      if (Object.keys(results).length > 0) {
        writeFileSync(join(ARTIFACTS, 'axe.json'), `${JSON.stringify(results, null, 2)}\n`);
      }
    });

    it('the first Tab shows the skip link, with a visible focus ring, and it moves to main', async () => {
      const { page, problems } = await tab();
      await page.goto(`${base}/pricing`);
      await page.keyboard.press('Tab');
      const skip = page.locator('a.skip');
      expect(await skip.evaluate((node) => node === node.ownerDocument.activeElement)).toBe(true);
      const box = await skip.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      const outline = await skip.evaluate((node) => {
        const style = node.ownerDocument.defaultView?.getComputedStyle(node);
        return `${style?.outlineStyle} ${style?.outlineWidth}`;
      });
      expect(outline).toBe('solid 3px');
      await page.keyboard.press('Enter');
      await expect
        .poll(
          () =>
            page.evaluate(
              () => (globalThis as unknown as BrowserGlobals).document.activeElement.id,
            ),
          POLL,
        )
        .toBe('main');
      expect(problems).toStrictEqual([]);
      await page.close();
    });

    it.each([
      ...PAGES.map((page) => page.path),
      '/developers?upgraded=pro',
      '/developers?topup=10000',
    ])('%s has no serious or critical violation', async (path) => {
      const { page, problems } = await tab();
      const response = await page.goto(`${base}${path}`);
      expect((await response?.body())?.length).toBeLessThan(PAGE_BUDGET_BYTES);
      await page.addScriptTag({ url: AXE_PATH });
      const found = (await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: { run: (context: unknown, options: unknown) => Promise<unknown> };
          }
        ).axe;
        return axe.run((globalThis as unknown as { document: unknown }).document, {
          resultTypes: ['violations'],
        });
      })) as {
        violations: {
          id: string;
          impact: string | null;
          help: string;
          nodes: { target: unknown }[];
        }[];
      };
      const violations = found.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((node) => node.target),
      }));
      results[path] = violations;
      expect(
        violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
      ).toStrictEqual([]);
      const name = path === '/' ? 'home' : path.slice(1).replace(/[^a-z]+/g, '-');
      await screenshot(page, name);
      expect(problems).toStrictEqual([]);
      await page.close();
    });
  },
);
