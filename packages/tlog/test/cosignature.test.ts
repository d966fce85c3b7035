import { describe, expect, it } from 'vitest';
import {
  cosignatureVerifier,
  cosignedMessage,
  ed25519Cosigner,
  ed25519NoteKey,
  noteVerifier,
  openNote,
  signNote,
} from '../src/index.js';

const text = 'log.example/receipts\n12\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n';
const log = ed25519NoteKey('log.example/receipts', new Uint8Array(32).fill(1));
const witness = ed25519Cosigner('witness.example/w1', new Uint8Array(32).fill(2));

describe('Ed25519 cosignatures (C2SP tlog-cosignature)', () => {
  it('sign the cosignature/v1 message and open beside the log signature', () => {
    expect(cosignedMessage(text, 1700000000).toString()).toBe(
      `cosignature/v1\ntime 1700000000\n${text}`,
    );
    const note = signNote(text, [log.signer]) + witness.cosign(text, 1700000000);
    const verifier = cosignatureVerifier(witness.vkey);
    const opened = openNote(note, [log.verifier, verifier]);
    expect(opened.signatures.map((s) => s.name)).toStrictEqual([
      'log.example/receipts',
      'witness.example/w1',
    ]);
    const line = opened.signatures[1];
    expect(line && verifier.timestampOf(line)).toBe(1700000000);
  });

  it('have a vkey of type 0x04, a key ID of their own, and refuse the log key type', () => {
    const [name, id, key = ''] = witness.vkey.split('+');
    expect([name, id]).toStrictEqual([
      'witness.example/w1',
      witness.keyId.toString(16).padStart(8, '0'),
    ]);
    expect(Buffer.from(key, 'base64')[0]).toBe(0x04);
    expect(cosignatureVerifier(witness.vkey).keyId).toBe(witness.keyId);
    expect(() => cosignatureVerifier(log.vkey)).toThrow(
      expect.objectContaining({ code: 'malformed_vkey' }),
    );
    expect(() => noteVerifier(witness.vkey)).toThrow(
      expect.objectContaining({ code: 'malformed_vkey' }),
    );
  });

  it('fail on a one-byte edit of the checkpoint or of the timestamp', () => {
    const line = witness.cosign(text, 1700000000);
    const verifier = cosignatureVerifier(witness.vkey);
    const signed = signNote(text, [log.signer]);
    expect(() => openNote(signed.replace('\n12\n', '\n13\n') + line, [verifier])).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
    const bytes = Buffer.from(line.slice(line.lastIndexOf(' ') + 1, -1), 'base64');
    bytes[11] = (bytes[11] as number) ^ 1; // the timestamp's last byte
    const edited = `— witness.example/w1 ${bytes.toString('base64')}\n`;
    expect(() => openNote(signed + edited, [verifier])).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
  });

  it('refuse a zero timestamp', () => {
    expect(() => witness.cosign(text, 0)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});
