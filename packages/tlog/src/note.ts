import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { TlogError } from './errors.js';
import { fromBase64, toBase64 } from './hash.js';

/** The signature type byte of Ed25519 keys in C2SP signed-note. */
export const NOTE_ALG_ED25519 = 0x01;

/** Signs note texts under a key name (C2SP signed-note). */
export interface NoteSigner {
  readonly name: string;
  /** The 32-bit key ID (C2SP signed-note): the first 4 bytes of SHA-256 over the key. */
  readonly keyId: number;
  sign(message: Uint8Array): Uint8Array;
}

/** Checks signatures of one key (C2SP signed-note). */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

/** An Ed25519 note key: its signer, verifier and the verifier key string (`vkey`). */
export interface Ed25519NoteKey {
  readonly signer: NoteSigner;
  readonly verifier: NoteVerifier;
  /** `<name>+<key ID, 8 hex digits>+<base64(0x01 || public key)>`. */
  readonly vkey: string;
  readonly publicKey: Uint8Array;
}

/** One signature line of a note. */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: number;
  /** The base64 of key ID (4 bytes) + signature, as written in the note. */
  readonly base64: string;
}

/** A note whose signatures `openNote` checked. */
export interface OpenedNote {
  /** The signed text, ending in a newline. */
  readonly text: string;
  /** The signatures of the given verifiers (each checked). */
  readonly signatures: readonly NoteSignature[];
  /** Signatures by keys that were not given (not checked). */
  readonly unverified: readonly NoteSignature[];
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SIGNATURE_PREFIX = '— ';
const MAX_SIGNATURES = 100;

/**
 * Whether `name` can name a note key: non-empty, no Unicode spaces and no `+`
 * (C2SP signed-note).
 */
export function isValidKeyName(name: string): boolean {
  return (
    name !== '' && !/[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000+]/u.test(name)
  );
}

/**
 * The key ID of a key (C2SP signed-note): the first 4 bytes, big-endian, of
 * SHA-256(name || 0x0A || type byte || public key).
 */
export function noteKeyId(name: string, typedPublicKey: Uint8Array): number {
  const digest = createHash('sha256')
    .update(name, 'utf8')
    .update('\n')
    .update(typedPublicKey)
    .digest();
  return digest.readUInt32BE(0);
}

export function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

export function ed25519Public(publicKey: Uint8Array): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]),
    format: 'der',
    type: 'spki',
  });
}

/**
 * The private key and raw public key of an Ed25519 `seed` for a key named `name`, both
 * checked (shared by note keys and cosigner keys).
 */
export function ed25519FromSeed(
  name: string,
  seed: Uint8Array,
): { readonly privateKey: KeyObject; readonly publicKey: Uint8Array } {
  if (!isValidKeyName(name)) {
    throw new TlogError(
      'invalid_argument',
      `\`${name}\` is not a key name (non-empty, no spaces or \`+\`)`,
    );
  }
  if (seed.length !== 32) {
    throw new TlogError('invalid_argument', `an Ed25519 seed has 32 bytes, not ${seed.length}`);
  }
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return { privateKey, publicKey: new Uint8Array(spki.subarray(ED25519_SPKI_PREFIX.length)) };
}

/** An Ed25519 note key from its 32-byte seed (the RFC 8032 private key). */
export function ed25519NoteKey(name: string, seed: Uint8Array): Ed25519NoteKey {
  const { privateKey, publicKey } = ed25519FromSeed(name, seed);
  const typed = Uint8Array.of(NOTE_ALG_ED25519, ...publicKey);
  const keyId = noteKeyId(name, typed);
  const publicObject = ed25519Public(publicKey);
  return {
    signer: { name, keyId, sign: (message) => new Uint8Array(sign(null, message, privateKey)) },
    verifier: {
      name,
      keyId,
      verify: (message, signature) =>
        signature.length === 64 && verify(null, message, publicObject, signature),
    },
    vkey: `${name}+${hex8(keyId)}+${toBase64(typed)}`,
    publicKey,
  };
}

/**
 * The name, key ID and 32-byte Ed25519 key of a verifier key string
 * `<name>+<hex key ID>+<base64(type || key)>` whose type byte is `type`; throws
 * `malformed_vkey`, saying why, otherwise. `what` names the kind of key in the message.
 */
export function parseVkey(
  vkey: string,
  type: number,
  what: string,
): { readonly name: string; readonly keyId: number; readonly publicKey: Uint8Array } {
  const bad = (why: string) =>
    new TlogError('malformed_vkey', `\`${vkey}\` is not ${what}: ${why}`);
  // The name and the ID hold no `+`; the base64 key may.
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (second < 0) throw bad('expected `<name>+<hex id>+<base64 key>`');
  const name = vkey.slice(0, first);
  const idText = vkey.slice(first + 1, second);
  const typed = fromBase64(vkey.slice(second + 1));
  if (!isValidKeyName(name)) throw bad('bad key name');
  if (!/^[0-9a-f]{8}$/.test(idText)) throw bad('the key ID is 8 lower-case hex digits');
  if (typed === null || typed.length === 0) throw bad('the key is not base64');
  if (typed[0] !== type) throw bad(`unknown key type ${typed[0]}`);
  if (typed.length !== 33) throw bad('an Ed25519 key has 32 bytes');
  const keyId = Number.parseInt(idText, 16);
  if (noteKeyId(name, typed) !== keyId) throw bad('the key ID does not match the key');
  return { name, keyId, publicKey: typed.subarray(1) };
}

/** The verifier of a verifier key string `<name>+<hex key ID>+<base64 key>` (Ed25519 keys). */
export function noteVerifier(vkey: string): NoteVerifier {
  const { name, keyId, publicKey } = parseVkey(vkey, NOTE_ALG_ED25519, 'a verifier key');
  const publicObject = ed25519Public(publicKey);
  return {
    name,
    keyId,
    verify: (message, signature) =>
      signature.length === 64 && verify(null, message, publicObject, signature),
  };
}

/**
 * Signs `text` (which must end in a newline) and returns the note: the text, a blank
 * line and one `— <name> <base64(key ID || signature)>` line per signer, then any
 * `keep` lines (cosignatures already made) of other keys.
 */
export function signNote(
  text: string,
  signers: readonly NoteSigner[],
  keep: readonly NoteSignature[] = [],
): string {
  if (!text.endsWith('\n'))
    throw new TlogError('invalid_argument', 'a note text ends in a newline');
  checkNoteText(text);
  const message = Buffer.from(text, 'utf8');
  let lines = '';
  const own = new Set<string>();
  for (const signer of signers) {
    if (!isValidKeyName(signer.name)) {
      throw new TlogError('invalid_argument', `\`${signer.name}\` is not a key name`);
    }
    own.add(`${signer.name}+${signer.keyId}`);
    const id = Buffer.alloc(4);
    id.writeUInt32BE(signer.keyId);
    lines += `${SIGNATURE_PREFIX}${signer.name} ${toBase64(Buffer.concat([id, signer.sign(message)]))}\n`;
  }
  for (const sig of keep) {
    if (!own.has(`${sig.name}+${sig.keyId}`))
      lines += `${SIGNATURE_PREFIX}${sig.name} ${sig.base64}\n`;
  }
  return `${text}\n${lines}`;
}

/** Valid UTF-8 with no control characters but newlines (C2SP signed-note). */
function checkNoteText(text: string): void {
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) {
    throw new TlogError('malformed_note', 'a note holds no control characters but newlines');
  }
}

/**
 * Opens a signed note (C2SP signed-note): splits the text from its signature lines and
 * checks every signature of a known key. Throws `malformed_note` on a note that is not
 * well formed, `invalid_signature` when a known key's signature fails, and
 * `unverified_note` when no known key signed it.
 */
export function openNote(note: string, verifiers: readonly NoteVerifier[]): OpenedNote {
  checkNoteText(note);
  const malformed = (why: string) => new TlogError('malformed_note', `not a signed note: ${why}`);
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw malformed('no blank line before the signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) throw malformed('the signatures end in a newline');
  const message = Buffer.from(text, 'utf8');
  const signatures: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const seen = new Set<string>();
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw malformed(`more than ${MAX_SIGNATURES} signatures`);
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw malformed(`\`${line}\` is not a signature line`);
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = space < 0 ? rest : rest.slice(0, space);
    const base64 = space < 0 ? '' : rest.slice(space + 1);
    const bytes = fromBase64(base64);
    if (!isValidKeyName(name) || bytes === null || bytes.length < 5) {
      throw malformed(`\`${line}\` is not a signature line`);
    }
    const keyId = Buffer.from(bytes).readUInt32BE(0);
    const signature: NoteSignature = { name, keyId, base64 };
    const key = `${name}+${keyId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const verifier = verifiers.find((v) => v.name === name && v.keyId === keyId);
    if (verifier === undefined) {
      unverified.push(signature);
      continue;
    }
    if (!verifier.verify(message, bytes.subarray(4))) {
      throw new TlogError(
        'invalid_signature',
        `the signature of ${name}+${hex8(keyId)} does not verify`,
      );
    }
    signatures.push(signature);
  }
  if (signatures.length === 0) {
    throw new TlogError('unverified_note', 'no known key signed the note');
  }
  return { text, signatures, unverified };
}
