import type { AddressInfo } from 'node:net';
import { cosignatureVerifier, ed25519Cosigner, noteVerifier } from '@storefront/tlog';
import { loadWitnessSeed } from './key.js';
import { witnessServer } from './server.js';
import { FileStore } from './store.js';
import { Witness } from './witness.js';

export { KEY_FILE, loadWitnessSeed } from './key.js';
export { MAX_BODY_BYTES, witnessServer } from './server.js';
export { FileStore, type Update, type WitnessState, type WitnessStore } from './store.js';
export { MAX_PROOF_LINES, Witness, type WitnessAnswer } from './witness.js';
export { cosignatureVerifier };

/** What a running witness gives its starter. */
export interface RunningWitness {
  /** Its base URL: the submission and monitoring prefix. */
  readonly url: string;
  readonly name: string;
  /** Its verifier key (`<name>+<id>+<base64(0x04 || key)>`). */
  readonly vkey: string;
  close(): Promise<void>;
}

/** How to start a witness. */
export interface WitnessOptions {
  /** Its key name, a schema-less URL (`witness.example.com/w1`). */
  readonly name: string;
  /** The verifier keys (`vkey`) of the logs it follows: each key's name is its log's origin. */
  readonly logs: readonly string[];
  /** Where it keeps its key (unless `key` is given) and the latest checkpoint per log. */
  readonly dataDir: string;
  /** Its Ed25519 seed, 64 hex digits; default the one kept in `dataDir`. */
  readonly key?: string | undefined;
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
}

/** Starts a witness's HTTP server. */
export async function startWitness(options: WitnessOptions): Promise<RunningWitness> {
  const cosigner = ed25519Cosigner(options.name, loadWitnessSeed(options.key, options.dataDir));
  const witness = new Witness({
    cosigner,
    logs: options.logs.map((vkey) => noteVerifier(vkey)),
    store: new FileStore(options.dataDir),
  });
  const server = witnessServer(witness, { name: options.name });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    name: options.name,
    vkey: cosigner.vkey,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
