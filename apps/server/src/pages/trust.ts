import {
  ATTEST_SCHEME,
  MESSAGE_TEMPLATE,
  type ServiceAttestationDocument,
} from '@storefront/attest';
import {
  DEFAULT_ALLOWED_PORTS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  MAX_URL_LENGTH,
} from '@storefront/safe-fetch';
import { html } from './html.js';
import { layout } from './layout.js';

/** `/trust`: the signer keys, how receipts work, what is stored, how fetching is guarded. */
export function trustPage(doc: ServiceAttestationDocument): string {
  const ports = `${DEFAULT_ALLOWED_PORTS.slice(0, -1).join(', ')} and ${DEFAULT_ALLOWED_PORTS.at(-1)}`;
  const retired =
    doc.retired.length === 0
      ? html`<p>No key has been retired.</p>`
      : html`<table>
<thead><tr><th scope="col">retired key</th><th scope="col">retired at</th></tr></thead>
<tbody>
${doc.retired.map((key) => html`<tr><td><code>${key.address}</code></td><td>${key.retiredAt}</td></tr>\n`)}</tbody>
</table>
<p>A retired key still vouches for receipts it signed before it was retired.</p>`;
  const body = html`<h1>Trust</h1>
<p class="lead">What a receipt proves, how to check one without us, and what the service keeps.</p>

<h2 id="keys">Signer key</h2>
<dl class="checks">
<dt>address</dt><dd><code id="signer-address">${doc.address}</code></dd>
<dt>keyId</dt><dd><code>${doc.keyId}</code></dd>
<dt>algorithm</dt><dd><code>${doc.alg}</code></dd>
</dl>
<p>The key is pinned at <a href="/.well-known/service-attestation">/.well-known/service-attestation</a>: pin that address in your verifier.</p>
${retired}

<h2 id="receipts">How a receipt is built</h2>
<p>Every result has a <code>text</code> field: the exact canonical string the receipt covers (RFC 8785 JSON of <code>data</code>, newline-joined rows, the page text or markdown, depending on the route). The service takes its sha256 and signs, with EIP-191 <code>personal_sign</code>, this message (lines joined by <code>\\n</code>, no trailing newline):</p>
<pre><code>${MESSAGE_TEMPLATE.join('\n')}</code></pre>
<p>The message is in <code>attestation.verify.message</code>, the signature in <code>attestation.signature</code>, and <code>keyId</code> is <code>${ATTEST_SCHEME}:</code> plus the signer address.</p>

<h2 id="verify">How to verify one offline</h2>
<ol>
<li>sha256 of <code>text</code> (its UTF-8 bytes), as <code>0x</code> + hex, equals <code>attestation.contentHash</code> and the <code>contentHash</code> line of the message.</li>
<li>The EIP-191 signer recovered from the message and the signature (<code>ethers.verifyMessage</code>, or viem's <code>verifyMessage</code>) is the pinned address.</li>
<li>The result's <code>url</code>, <code>status</code> and <code>fetchedAt</code> are the signed ones, and where <code>text</code> restates other fields (such as <code>data</code>), they still give the same text.</li>
</ol>
<p><a href="/verify">/verify</a> runs these checks in your browser. The same checks run from a checkout of the repository with <code>node packages/attest/bin/storefront-verify.js result.json --pin &lt;address&gt;</code>, or on the service with <code>POST /x402/verify</code>.</p>

<h2 id="determinism">Determinism</h2>
<p>No product uses a language model, a clock, randomness or the machine's locale: the same source bytes and parameters give byte-identical <code>text</code> on any machine. Only the time of the read, the final URL, the status and the receipt's nonce change from one call to the next, and they are signed too.</p>

<h2 id="storage">What is stored about keys</h2>
<p>A key is shown once, when it is minted. The service keeps only its sha256 and its last 4 characters (to name it in messages), with its plan, balance, counters and the ledger of its calls. The raw key is never stored or logged, and it cannot be recovered; request logs redact <code>key</code> query values and record no headers.</p>

<h2 id="ssrf">What the service will fetch</h2>
<p>Every outbound request goes through one guarded fetcher:</p>
<ul>
<li>http and https only, no credentials in URLs, at most ${MAX_URL_LENGTH} characters; ports ${ports} only;</li>
<li>public addresses only: every address a name resolves to is checked when the connection opens, and the connection is pinned to the checked address, so DNS rebinding cannot swap it; private, loopback, link-local, metadata, NAT64, 6to4 and other special ranges are refused;</li>
<li>redirects are followed by hand, at most ${DEFAULT_MAX_REDIRECTS}, each hop checked again, and credentials are never forwarded;</li>
<li>one ${DEFAULT_TIMEOUT_MS / 1000} second deadline covers the whole exchange, and the decoded body is capped at ${DEFAULT_MAX_BODY_BYTES / (1024 * 1024)} MiB, so compressed bombs stop at the cap.</li>
</ul>
<p>A refused target answers <code>blocked_ssrf</code> or <code>invalid_url</code> and is never charged.</p>`;
  return layout(
    {
      path: '/trust',
      title: 'Trust',
      description:
        'The signer key, how receipts are built and verified, what is stored, and how fetching is guarded.',
    },
    body,
  );
}
