import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/** A certificate and its private key, PEM. */
export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

/** Options of one leaf certificate. */
export interface LeafOptions {
  /** The subjectAltName DNS names; the first is also the common name. */
  readonly names: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/** A test PKI: a root CA, an intermediate it signed, and leaves the intermediate signs. */
export interface TestChain {
  readonly root: TestCertificate;
  readonly intermediate: TestCertificate;
  /** A leaf signed by the intermediate. */
  leaf(options: LeafOptions): TestCertificate;
  /** A self-signed leaf, issued by nobody. */
  selfSigned(options: LeafOptions): TestCertificate;
}

let serial = 1;

function keyPair(): {
  forgeKey: forge.pki.rsa.PrivateKey;
  forgePublic: forge.pki.rsa.PublicKey;
  pem: string;
} {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return {
    forgeKey: forge.pki.privateKeyFromPem(privateKey),
    forgePublic: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    pem: privateKey,
  };
}

function build(
  subject: string,
  issuer: { name: string; key: forge.pki.rsa.PrivateKey } | null,
  ca: boolean,
  options: { names?: readonly string[]; notBefore: Date; notAfter: Date },
): TestCertificate & { forgeKey: forge.pki.rsa.PrivateKey } {
  const keys = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.forgePublic;
  // A positive INTEGER without leading zero bytes (OpenSSL refuses padded ones).
  cert.serialNumber = (0x10000000 + serial++).toString(16);
  cert.validity.notBefore = options.notBefore;
  cert.validity.notAfter = options.notAfter;
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setIssuer([{ name: 'commonName', value: issuer?.name ?? subject }]);
  const extensions: object[] = [
    { name: 'basicConstraints', cA: ca, critical: true },
    ca
      ? { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }
      : { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ];
  if (!ca) extensions.push({ name: 'extKeyUsage', serverAuth: true });
  if (options.names !== undefined) {
    extensions.push({
      name: 'subjectAltName',
      altNames: options.names.map((value) => ({ type: 2, value })),
    });
  }
  cert.setExtensions(extensions);
  cert.sign(issuer?.key ?? keys.forgeKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keys.pem, forgeKey: keys.forgeKey };
}

/**
 * A fresh test PKI (RSA 2048, SHA-256): keys from node:crypto, certificates built by
 * node-forge, so that any validity period can be set (an expired leaf).
 */
export function makeTestChain(prefix = 'Storefront Test'): TestChain {
  const notBefore = new Date(Date.now() - 86_400_000);
  const notAfter = new Date(Date.now() + 3650 * 86_400_000);
  const rootName = `${prefix} Root CA`;
  const intermediateName = `${prefix} Intermediate CA`;
  const root = build(rootName, null, true, { notBefore, notAfter });
  const intermediate = build(intermediateName, { name: rootName, key: root.forgeKey }, true, {
    notBefore,
    notAfter,
  });
  const strip = ({ cert, key }: TestCertificate): TestCertificate => ({ cert, key });
  return {
    root: strip(root),
    intermediate: strip(intermediate),
    leaf: (options) =>
      strip(
        build(
          options.names[0] ?? 'leaf',
          { name: intermediateName, key: intermediate.forgeKey },
          false,
          options,
        ),
      ),
    selfSigned: (options) => strip(build(options.names[0] ?? 'self', null, false, options)),
  };
}
