import { html } from './html.js';
import { layout } from './layout.js';

/** `/verify`: check a result in the browser against the pinned key. */
export function verifyPage(): string {
  const body = html`<h1>Verify a result</h1>
<p class="lead">Paste or drop a result (the whole JSON answer of a route). It is checked <strong>in your browser</strong>: the only request this page makes to the service is for the pinned key at <a href="/.well-known/service-attestation">/.well-known/service-attestation</a>. The result itself is never sent.</p>
<form id="verify-form">
<div class="drop" id="drop">
<label for="result-json">Result JSON</label>
<textarea id="result-json" name="result" rows="12" spellcheck="false" required></textarea>
<label for="result-file">Or choose a file (or drop one on the box)</label>
<input id="result-file" type="file" accept="application/json,.json">
</div>
<label for="log-proof">Log inclusion proof (optional): the answer of <code>/log/proof?receipt=&lt;hash&gt;</code></label>
<textarea id="log-proof" name="proof" rows="4" spellcheck="false"></textarea>
<button type="submit">Verify</button>
</form>
<div id="verify-result" aria-live="polite"></div>
<noscript><p class="note">This page checks results with JavaScript. Without it, use <code>node packages/attest/bin/storefront-verify.js result.json --pin &lt;address&gt;</code> from a checkout of the repository, or <code>POST /x402/verify</code>.</p></noscript>
<h2 id="checks">What is checked</h2>
<ul>
<li><strong>contentHash</strong>: sha256 of <code>text</code> equals the signed <code>contentHash</code>;</li>
<li><strong>signature</strong>: the EIP-191 signature of <code>verify.message</code> recovers <code>address</code> and <code>keyId</code>;</li>
<li><strong>pinnedKey</strong>: that signer is the pinned key (or a retired key, for receipts signed before it retired);</li>
<li><strong>envelope</strong>: the result's <code>url</code>, <code>status</code> and <code>fetchedAt</code> are the signed ones, and so are its page verdict (<code>page</code>) and, for a part of a longer text, its place in the whole (<code>slice</code>);</li>
<li><strong>fields</strong>: where <code>text</code> restates other fields (such as <code>data</code>), they still give it;</li>
<li><strong>log</strong>, when a proof is given: the checkpoint is signed by the log key published at <code>/.well-known/service-attestation</code> (<code>log.vkey</code>, Ed25519, checked with the browser's WebCrypto), and the inclusion proof leads from the receipt's log entry to its root (RFC 9162). Fetch the proof from <code>/log/proof?receipt=&lt;hash&gt;</code>, the hash being SHA-256 of the receipt's entry.</li>
</ul>
<p>The checks are those of the verifier in <code>packages/attest</code>, the same code <code>storefront-verify</code> and <code>POST /x402/verify</code> run, bundled for the browser (<a href="/assets/verifier.js">/assets/verifier.js</a>).</p>`;
  return layout(
    {
      path: '/verify',
      title: 'Verify',
      description: 'Verify a Storefront receipt in the browser against the pinned signer key.',
      scripts: ['/assets/verifier.js'],
    },
    body,
  );
}
