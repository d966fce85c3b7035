// Progressive enhancement of the Storefront pages: each block runs only where its
// elements are on the page. Every page works without it as far as HTML allows.
(() => {
  const KEY = 'storefront.key';
  const RESULT = 'storefront.result';
  const $ = (selector) => document.querySelector(selector);

  /** An element with attributes and children (strings become text, never HTML). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function show(target, ...nodes) {
    target.replaceChildren(...nodes);
  }

  function problem(message) {
    return el('div', { class: 'bad', role: 'alert' }, el('p', {}, message));
  }

  /** The JSON body of a response, or an error with the service's message. */
  async function json(response) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      // Not JSON: reported below.
    }
    if (!response.ok || body === null || body.ok === false) {
      const message = body?.message || body?.error || `HTTP ${response.status}`;
      throw new Error(message);
    }
    return body;
  }

  // The key minted or used on this tab: kept in sessionStorage, gone with the tab.
  function rememberKey(key) {
    try {
      sessionStorage.setItem(KEY, key);
    } catch {
      // Storage refused: the fields stay empty.
    }
    for (const input of document.querySelectorAll('input[data-key]')) {
      if (input.value === '') input.value = key;
    }
  }
  try {
    const saved = sessionStorage.getItem(KEY);
    if (saved)
      for (const input of document.querySelectorAll('input[data-key]')) input.value = saved;
  } catch {
    // No storage.
  }

  // Copy buttons: `data-copy` names the element whose text is copied.
  function copyButton(selector, label) {
    const button = el(
      'button',
      { type: 'button', class: 'secondary', 'data-copy': selector },
      label,
    );
    return button;
  }
  document.addEventListener('click', async (event) => {
    const button = event.target.closest?.('button[data-copy]');
    if (!button) return;
    const source = $(button.getAttribute('data-copy'));
    if (!source) return;
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(source.textContent);
      button.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
  for (const button of document.querySelectorAll('button[data-copy][hidden]'))
    button.hidden = false;

  // `/`: call the free demo and show its signed result.
  const tryForm = $('#try-form');
  if (tryForm) {
    tryForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const out = $('#try-result');
      show(out, el('p', {}, 'Calling /buy/signal…'));
      try {
        const body = await json(
          await fetch('/buy/signal', { headers: { accept: 'application/json' } }),
        );
        const text = JSON.stringify(body, null, 2);
        try {
          sessionStorage.setItem(RESULT, JSON.stringify(body));
        } catch {
          // No storage: /verify starts empty.
        }
        const a = body.attestation || {};
        show(
          out,
          el(
            'div',
            { class: 'ok', role: 'status' },
            el('p', {}, `Signed by ${a.address} (${a.alg}); contentHash ${a.contentHash}.`),
          ),
          el('pre', { id: 'try-json', class: 'result', tabindex: '0' }, el('code', {}, text)),
          copyButton('#try-json', 'Copy the result'),
          el(
            'p',
            {},
            el('a', { href: '/verify', id: 'verify-it' }, 'Verify this result in your browser'),
          ),
        );
      } catch (error) {
        show(out, problem(`The call failed: ${error.message}`));
      }
    });
  }

  // `/developers`: mint a key.
  const mintForm = $('#mint-form');
  if (mintForm) {
    mintForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const action = event.submitter?.getAttribute('formaction') || mintForm.getAttribute('action');
      const out = $('#mint-result');
      show(out, el('p', {}, 'Minting…'));
      try {
        const body = await json(await fetch(action, { method: 'POST' }));
        rememberKey(body.key);
        show(
          out,
          el(
            'div',
            { class: 'note', role: 'status' },
            el('p', {}, el('strong', {}, `Your ${body.env} key, shown once:`)),
            el('pre', {}, el('code', { id: 'minted-key' }, body.key)),
            copyButton('#minted-key', 'Copy the key'),
            el('p', {}, `Save it now: ${body.save_it}`),
            el(
              'p',
              { class: 'muted' },
              'It is kept in this browser tab only (session storage) to fill the forms below, and forgotten when the tab closes.',
            ),
          ),
        );
      } catch (error) {
        show(out, problem(`No key was minted: ${error.message}`));
      }
    });
  }

  function row(term, value) {
    return [el('dt', {}, term), el('dd', {}, String(value))];
  }

  // `/developers`: balance, then usage (when the service has the usage route).
  async function checkBalance(key) {
    const out = $('#balance-result');
    show(out, el('p', {}, 'Checking…'));
    try {
      const headers = { authorization: `Bearer ${key}` };
      const body = await json(await fetch('/api/dev/balance', { headers }));
      rememberKey(key);
      const rows = [
        row('key', `…${body.tail} (${body.env})`),
        row('tier', body.tier),
        row('calls', body.calls),
      ];
      if (body.env === 'test') {
        rows.push(row('sandbox calls left', `${body.sandbox_remaining} of ${body.sandbox_cap}`));
      } else {
        rows.push(row('credits', body.credits));
        rows.push(row('allowance left', body.included_remaining ?? 'unmetered'));
      }
      const sub = body.subscription;
      if (sub) {
        const until = sub.ends_at
          ? `, ends ${sub.ends_at.slice(0, 10)}`
          : sub.current_period_end
            ? `, renews ${sub.current_period_end.slice(0, 10)}`
            : '';
        rows.push(row('subscription', `${sub.tier}, ${sub.status.replace('_', ' ')}${until}`));
      }
      rows.push(row('created', body.createdAt), row('last used', body.lastUsedAt ?? 'never'));
      show(out, el('dl', { class: 'checks', id: 'balance-rows' }, ...rows.flat()));
      await usage(headers);
    } catch (error) {
      show(out, problem(`No balance: ${error.message}`));
    }
  }

  async function usage(headers) {
    const out = $('#usage');
    if (!out) return;
    let body;
    try {
      const response = await fetch('/api/dev/usage', { headers });
      if (!response.ok) {
        out.replaceChildren();
        return;
      }
      body = await response.json();
    } catch {
      out.replaceChildren();
      return;
    }
    const days = Array.isArray(body?.days) ? body.days.slice(-31) : [];
    if (!days.some((d) => d.calls > 0)) {
      show(out, el('p', { class: 'muted' }, 'No calls yet.'));
      return;
    }
    show(out, el('h3', {}, 'Calls and credits per day'), chart(days));
  }

  /** Two bars a day, each series scaled to its own maximum, as inline SVG. */
  function chart(days) {
    const NS = 'http://www.w3.org/2000/svg';
    const svgEl = (tag, attrs, text) => {
      const node = document.createElementNS(NS, tag);
      for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
      if (text !== undefined) node.textContent = text;
      return node;
    };
    const step = Math.min(60, Math.max(24, Math.floor(300 / days.length)));
    const width = Math.max(240, days.length * step + 20);
    const height = 150;
    const top = 20;
    const bottom = 120;
    const maxCalls = Math.max(1, ...days.map((d) => d.calls));
    const maxCredits = Math.max(1, ...days.map((d) => d.credits));
    const total = (key) => days.reduce((sum, d) => sum + d[key], 0);
    const summary = `${days.length} days from ${days[0].date} to ${days[days.length - 1].date}: ${total('calls')} calls, ${total('credits')} credits`;
    const svg = svgEl('svg', {
      class: 'chart',
      id: 'usage-chart',
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': summary,
    });
    svg.append(svgEl('title', {}, summary));
    days.forEach((d, i) => {
      const x = 10 + i * step;
      const hCalls = ((bottom - top) * d.calls) / maxCalls;
      const hCredits = ((bottom - top) * d.credits) / maxCredits;
      const calls = svgEl('rect', {
        class: 'calls',
        x,
        y: bottom - hCalls,
        width: 9,
        height: hCalls,
      });
      calls.append(svgEl('title', {}, `${d.date}: ${d.calls} calls`));
      const credits = svgEl('rect', {
        class: 'credits',
        x: x + 10,
        y: bottom - hCredits,
        width: 9,
        height: hCredits,
      });
      credits.append(svgEl('title', {}, `${d.date}: ${d.credits} credits`));
      svg.append(calls, credits);
      if (i === 0 || i === days.length - 1) {
        svg.append(svgEl('text', { x, y: bottom + 14 }, d.date.slice(5)));
      }
    });
    svg.append(svgEl('text', { x: 10, y: 12 }, `calls (max ${maxCalls})`));
    svg.append(svgEl('text', { x: 130, y: 12 }, `credits (max ${maxCredits})`));
    return svg;
  }

  const balanceForm = $('#balance-form');
  if (balanceForm) {
    balanceForm.addEventListener('submit', (event) => {
      event.preventDefault();
      checkBalance($('#balance-key').value.trim());
    });
    // Back from a paid checkout or a subscription change: show the key's balance at once
    // when the key is known on this tab.
    const back = $('#upgraded') || $('#topped-up') || $('#subscription-action');
    if (back && $('#balance-key').value) checkBalance($('#balance-key').value.trim());
  }

  // Checkout: top-up on `/developers`, subscription on `/pricing`; both go to the
  // checkout address the service answers.
  async function checkout(out, path, label) {
    show(out, el('p', {}, `Opening ${label}…`));
    try {
      const body = await json(await fetch(path, { method: 'POST' }));
      const usd = Number.isInteger(body.usd) ? `$${body.usd}` : `$${body.usd.toFixed(2)}`;
      const what = body.tier
        ? `the ${body.tier} plan, ${usd} a month`
        : `${body.credits} credits, ${usd}`;
      show(out, el('p', { role: 'status' }, `Going to checkout ${body.checkoutId} for ${what}…`));
      location.assign(body.url);
    } catch (error) {
      show(out, problem(`No checkout: ${error.message}`));
    }
  }

  const topupForm = $('#topup-form');
  if (topupForm) {
    topupForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const key = $('#topup-key').value.trim();
      rememberKey(key);
      const usd = $('#topup-usd').value;
      const query = new URLSearchParams({ key, usd });
      checkout($('#topup-result'), `/api/dev/topup?${query}`, 'the top-up');
    });
  }

  const subscribeForm = $('#subscribe-form');
  if (subscribeForm) {
    subscribeForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const key = $('#subscribe-key').value.trim();
      const tier = event.submitter?.value || 'pro';
      rememberKey(key);
      const query = new URLSearchParams({ key, tier });
      checkout($('#subscribe-result'), `/api/dev/subscribe?${query}`, `the ${tier} checkout`);
    });
  }

  /** A note verifier key `<name>+<hex id>+<base64(type || key)>` of `type`, or null. */
  function vkeyOf(vkey, type) {
    const text = String(vkey ?? '');
    const first = text.indexOf('+');
    const second = text.indexOf('+', first + 1);
    const key = globalThis.StorefrontVerify.fromBase64(text.slice(second + 1));
    if (first < 0 || second < 0 || key === null || key.length !== 33 || key[0] !== type) {
      return null;
    }
    return { name: text.slice(0, first), id: text.slice(first + 1, second), key: key.slice(1) };
  }

  /** The bytes after the key ID of `name`'s signature line among `lines`, if its ID is `id`. */
  function signatureOf(lines, { name, id }) {
    const line = lines.split('\n').find((l) => l.startsWith(`\u2014 ${name} `));
    const bytes =
      line === undefined
        ? null
        : globalThis.StorefrontVerify.fromBase64(line.slice(name.length + 3));
    const hex =
      bytes && Array.from(bytes.slice(0, 4), (b) => b.toString(16).padStart(2, '0')).join('');
    return hex === id ? bytes.slice(4) : null;
  }

  /** Whether `signature` is `key`'s Ed25519 signature of `text` (WebCrypto). */
  async function ed25519(key, signature, text) {
    const publicKey = await crypto.subtle.importKey('raw', key, { name: 'Ed25519' }, false, [
      'verify',
    ]);
    return crypto.subtle.verify(
      { name: 'Ed25519' },
      publicKey,
      signature,
      new TextEncoder().encode(text),
    );
  }

  /**
   * Whether a receipt is in the log: the checkpoint of `proofText` (a `/log/proof` answer)
   * is signed by the pinned `log.vkey`, the proof leads from the receipt's entry to its
   * root (RFC 9162), and the pinned witnesses' cosignatures (`cosignature/v1`) verify.
   */
  async function checkLog(receipt, proofText, pinned) {
    const V = globalThis.StorefrontVerify;
    const fail = (message) => ({ ok: false, message: `Not in the log: ${message}` });
    let found;
    try {
      found = JSON.parse(proofText);
    } catch (error) {
      return fail(`the proof is not JSON (${error.message}).`);
    }
    if (typeof pinned?.log?.vkey !== 'string') return fail('the service publishes no log key.');
    const log = vkeyOf(pinned.log.vkey, 1);
    if (log === null) return fail('the published log key is not an Ed25519 verifier key.');
    if (typeof receipt !== 'object' || receipt === null) return fail('the result has no receipt.');
    const note = String(found.checkpoint ?? '');
    const split = note.lastIndexOf('\n\n');
    const text = note.slice(0, split + 1);
    const lines = note.slice(split + 2);
    const signature = split < 0 ? null : signatureOf(lines, log);
    if (signature === null || signature.length !== 64) {
      return fail('the checkpoint carries no signature of the log key.');
    }
    const witnessed = [];
    try {
      if (!(await ed25519(log.key, signature, text))) {
        return fail('the checkpoint’s signature does not verify.');
      }
      for (const witness of Array.isArray(pinned.log.witnesses) ? pinned.log.witnesses : []) {
        const key = vkeyOf(witness?.vkey, 4);
        const cosigned = key && signatureOf(lines, key);
        if (!cosigned || cosigned.length !== 72) continue;
        const time = new DataView(cosigned.buffer, cosigned.byteOffset, 8).getBigUint64(0);
        const message = `cosignature/v1\ntime ${time}\n${text}`;
        if (!(await ed25519(key.key, cosigned.slice(8), message))) {
          return fail(`the cosignature of the witness ${key.name} does not verify.`);
        }
        witnessed.push(
          ` Cosigned by the witness ${key.name} at ${new Date(Number(time) * 1000).toISOString()}.`,
        );
      }
    } catch (error) {
      return fail(`this browser cannot check Ed25519 signatures (${error.message}).`);
    }
    let checkpoint;
    try {
      checkpoint = V.parseCheckpoint(text);
    } catch (error) {
      return fail(error.message);
    }
    if (checkpoint.origin !== log.name) return fail('the checkpoint is of another log.');
    const proof = Array.isArray(found.proof) ? found.proof.map((h) => V.fromBase64(String(h))) : [];
    if (!Array.isArray(found.proof) || proof.some((h) => h === null || h.length !== 32)) {
      return fail('the proof is not a list of base64 hashes.');
    }
    let entry;
    try {
      entry = V.logEntry(receipt);
    } catch (error) {
      return fail(error.message);
    }
    const index = Number(found.index);
    const ok =
      Number.isSafeInteger(index) &&
      index >= 0 &&
      V.verifyInclusion(V.leafHash(entry), index, checkpoint.size, proof, checkpoint.root);
    if (!ok)
      return fail(`the proof does not lead from entry ${found.index} to the signed checkpoint.`);
    return {
      ok: true,
      message: `In the log: entry ${index} of ${checkpoint.origin}, whose checkpoint of ${checkpoint.size} entries is signed by its key.${witnessed.join('')}`,
    };
  }

  // `/verify`: check a result in this browser against the pinned key.
  const verifyForm = $('#verify-form');
  if (verifyForm) {
    const area = $('#result-json');
    try {
      const last = sessionStorage.getItem(RESULT);
      if (last && area.value === '') area.value = JSON.stringify(JSON.parse(last), null, 2);
    } catch {
      // No storage.
    }
    const load = async (file) => {
      if (file) area.value = await file.text();
    };
    $('#result-file').addEventListener('change', (event) => load(event.target.files[0]));
    const drop = $('#drop');
    drop.addEventListener('dragover', (event) => {
      event.preventDefault();
      drop.classList.add('over');
    });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (event) => {
      event.preventDefault();
      drop.classList.remove('over');
      load(event.dataTransfer.files[0]);
    });

    let pinned = null;
    verifyForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const out = $('#verify-result');
      let result;
      try {
        result = JSON.parse(area.value);
      } catch (error) {
        show(out, problem(`Refused: this is not JSON (${error.message}).`));
        return;
      }
      try {
        pinned ??= await json(await fetch('/.well-known/service-attestation'));
      } catch (error) {
        pinned = null;
        show(out, problem(`The pinned key could not be read: ${error.message}`));
        return;
      }
      let verdict;
      try {
        verdict = globalThis.StorefrontVerify.verifyReceipt(result, pinned);
      } catch (error) {
        show(out, problem(`Refused: ${error.message}`));
        return;
      }
      const logText = $('#log-proof')?.value.trim() ?? '';
      const logged = logText === '' ? null : await checkLog(result.attestation, logText, pinned);
      const checks = Object.entries(verdict.checks).flatMap(([name, value]) =>
        row(name, value === null ? 'n/a' : value ? 'pass' : 'FAIL'),
      );
      if (logged !== null) checks.push(...row('log', logged.ok ? 'pass' : 'FAIL'));
      show(
        out,
        el(
          'div',
          {
            class: verdict.valid ? 'ok' : 'bad',
            role: verdict.valid ? 'status' : 'alert',
            id: 'verdict',
          },
          el(
            'p',
            {},
            el('strong', {}, verdict.valid ? 'Valid' : 'Refused'),
            verdict.valid
              ? `: signed by the pinned key ${verdict.signer} (${verdict.keyId}).`
              : ': this result does not verify against the pinned key.',
          ),
          verdict.problems.length > 0
            ? el('ul', { id: 'reasons' }, ...verdict.problems.map((p) => el('li', {}, p)))
            : null,
        ),
        el('dl', { class: 'checks' }, ...checks),
        logged === null
          ? null
          : el('p', { id: 'log-verdict', class: logged.ok ? 'muted' : 'bad' }, logged.message),
        el('p', { class: 'muted' }, `Covered: ${verdict.covered.join(', ')}.`),
        verdict.uncovered.length > 0
          ? el('p', { class: 'muted' }, `Not covered: ${verdict.uncovered.join(', ')}.`)
          : null,
      );
    });
  }
})();
