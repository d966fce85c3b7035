import { describe, expect, it } from 'vitest';
import {
  ed25519NoteKey,
  formatCheckpoint,
  noteVerifier,
  openCheckpoint,
  openNote,
  parseCheckpoint,
  signNote,
} from '../src/index.js';
import { goVectors } from './helpers.js';

const { note, vkey, name, text, seed } = goVectors().note;
const key = ed25519NoteKey(name, new Uint8Array(Buffer.from(seed, 'hex')));

describe('signed notes (C2SP signed-note)', () => {
  it('open with the verifier parsed from the vkey', () => {
    const opened = openNote(note, [noteVerifier(vkey)]);
    expect(opened.text).toBe(text);
    expect(opened.signatures).toHaveLength(1);
    expect(opened.signatures[0]?.keyId).toBe(0xd455c521);
  });

  it('refuse a one-byte edit of the text or the signature', () => {
    const verifier = noteVerifier(vkey);
    expect(() => openNote(note.replace('1000', '1001'), [verifier])).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
    const sigAt = note.lastIndexOf(' ') + 10;
    const edited = note.slice(0, sigAt) + (note[sigAt] === 'A' ? 'B' : 'A') + note.slice(sigAt + 1);
    expect(() => openNote(edited, [verifier])).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
  });

  it('keep other keys’ signatures aside, and need one known key', () => {
    const other = ed25519NoteKey('witness.example', new Uint8Array(32).fill(7));
    const cosigned = signNote(text, [key.signer, other.signer]);
    const opened = openNote(cosigned, [key.verifier]);
    expect(opened.unverified.map((s) => s.name)).toStrictEqual(['witness.example']);
    expect(() => openNote(cosigned, [])).toThrow(
      expect.objectContaining({ code: 'unverified_note' }),
    );
    expect(signNote(text, [key.signer], opened.unverified)).toBe(cosigned);
  });

  it('refuse malformed notes and keys', () => {
    for (const bad of [
      text,
      `${text}\n`,
      `${text}\n— ${name}\n`,
      `${text}\nnope\n`,
      `a\tb\n\n— x AAAAAAA=\n`,
    ]) {
      expect(() => openNote(bad, [key.verifier]), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: 'malformed_note' }),
      );
    }
    expect(() => noteVerifier(vkey.replace('+d455c521+', '+d455c522+'))).toThrow(
      expect.objectContaining({ code: 'malformed_vkey' }),
    );
    expect(() => ed25519NoteKey('a b', new Uint8Array(32))).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

describe('checkpoints (C2SP tlog-checkpoint)', () => {
  it('format and parse, extensions included', () => {
    const checkpoint = {
      origin: 'example.com/log',
      size: 3,
      root: new Uint8Array(32),
      extensions: ['ext a'],
    };
    const body = formatCheckpoint(checkpoint);
    expect(body).toBe(`example.com/log\n3\n${'A'.repeat(43)}=\next a\n`);
    expect(parseCheckpoint(body)).toStrictEqual(checkpoint);
  });

  it('refuse malformed bodies', () => {
    for (const bad of [
      'a\n1\n',
      'a\n01\nAAAA\n',
      `a\n1\n${'A'.repeat(43)}=`,
      `a\n-1\n${'A'.repeat(43)}=\n`,
      `a\n1\nAAAA\n`,
      `\n1\n${'A'.repeat(43)}=\n`,
    ]) {
      expect(() => parseCheckpoint(bad), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: 'malformed_checkpoint' }),
      );
    }
  });

  it('need the log key’s signature and its name as the origin', () => {
    const other = ed25519NoteKey('other.example', new Uint8Array(32).fill(9));
    const signedByOther = signNote(text, [other.signer]);
    expect(() => openCheckpoint(signedByOther, key.verifier, [other.verifier])).toThrow(
      expect.objectContaining({ code: 'unverified_note' }),
    );
    const wrongOrigin = signNote(text, [other.signer]);
    expect(() => openCheckpoint(wrongOrigin, other.verifier)).toThrow(
      expect.objectContaining({ code: 'malformed_checkpoint' }),
    );
  });
});
