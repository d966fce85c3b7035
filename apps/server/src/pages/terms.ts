import { CHARGE_RULES } from '../pipeline/charge.js';
import type { AnyRoute, ChargeRule } from '../registry/types.js';
import { KEYS_PER_IP_PER_HOUR } from '../routes/dev-keys.js';
import { html } from './html.js';
import { layout } from './layout.js';

/** The charge rules in the order the terms list them. */
const RULE_ORDER: readonly ChargeRule[] = [
  'per-attempt',
  'free-on-failure',
  'before-charging',
  'always-delivered',
];

/** `/terms`: plain-language terms; the per-route charging comes from the registry. */
export function termsPage(routes: readonly AnyRoute[]): string {
  const rules = RULE_ORDER.map((rule) => {
    const on = routes.filter((route) => route.chargeRule === rule);
    if (on.length === 0) return null;
    return html`<tr><td>${on.map((route, i) => html`${i > 0 ? ', ' : ''}<code>${route.path}</code>`)}</td><td>${CHARGE_RULES[rule].failure}</td></tr>
`;
  });
  const body = html`<h1>Terms</h1>
<p class="lead">The short version: you pay per call, payments are final, the service does its best, and what we owe you is capped at what you paid.</p>

<h2 id="payments">Payments</h2>
<ul>
<li>Every paid call is paid for when it is made: in USDC through x402, or from a key's credits or plan allowance. <strong>Payments are non-refundable</strong>, and so are subscriptions and credit top-ups.</li>
<li>Prices are the ones published in <a href="/catalog">/catalog</a>, on <a href="/pricing">/pricing</a> and in each route's 402 terms at the moment of the call.</li>
<li>A test key's sandbox calls are free and capped. A plan's allowance is for its month; purchased credits stay until spent.</li>
</ul>

<h2 id="charging">What a call is charged</h2>
<p>Charging is per attempt: every call answers a structured result, either a success or an <code>ok:false</code> result with a reason, and the service never charges and then answers with a bare server error. Bad input (a missing or invalid parameter) is refused with HTTP 400 before anything is asked or taken, and a target the service refuses to reach (an invalid URL, a private or internal address) is never charged. What an <code>ok:false</code> result costs depends on the route:</p>
<table>
<thead><tr><th scope="col">routes</th><th scope="col">an <code>ok:false</code> result</th></tr></thead>
<tbody>
${rules}</tbody>
</table>
<p><code>/buy/signal</code> is free. On an x402 call, a payment is settled only when the rule above charges the call; otherwise the authorization is never settled and costs nothing.</p>

<h2 id="service">The service</h2>
<ul>
<li>The service is provided <strong>best effort</strong>, with no guarantee of availability, speed or fitness for a purpose. A page may be unreachable, slow, or different from what a person sees in a browser.</li>
<li>A receipt proves what the service read and when; it does not prove that the page is true.</li>
<li>Our <strong>liability is capped at the amount you paid</strong> for the call in question.</li>
<li>Use the service only for pages you may read. The service refuses private and internal addresses (see <a href="/trust#ssrf">how</a>).</li>
</ul>

<h2 id="keys">Keys</h2>
<p>Keys are issued without an account, at most ${KEYS_PER_IP_PER_HOUR} per address per hour, and shown once: only their sha256 and last 4 characters are stored, so a lost key cannot be recovered. Keep a key secret; anyone holding it spends its balance.</p>`;
  return layout(
    {
      path: '/terms',
      title: 'Terms',
      description:
        'Plain-language terms: non-refundable per-call payments, best effort, liability capped.',
    },
    body,
  );
}
