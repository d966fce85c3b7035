import { describe, expect, it } from 'vitest';
import * as tlog from '../src/index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(tlog).sort()).toStrictEqual([
      'HASH_SIZE',
      'MAX_ENTRY_SIZE',
      'NOTE_ALG_COSIGNATURE_V1',
      'NOTE_ALG_ED25519',
      'TILE_HEIGHT',
      'TILE_WIDTH',
      'TLOG_ERROR_CODES',
      'TlogError',
      'appendLeaves',
      'bytesEqual',
      'cosignatureVerifier',
      'cosignedMessage',
      'decodeEntryBundle',
      'ed25519Cosigner',
      'ed25519NoteKey',
      'emptyRoot',
      'encodeEntryBundle',
      'encodeTile',
      'entriesPath',
      'foldHashes',
      'formatCheckpoint',
      'fromBase64',
      'isValidKeyName',
      'leafHash',
      'nodeHash',
      'noteKeyId',
      'noteVerifier',
      'openCheckpoint',
      'openNote',
      'parseCheckpoint',
      'parseTilePath',
      'proveConsistency',
      'proveInclusion',
      'signNote',
      'subtreeNodes',
      'tileNodes',
      'tilePath',
      'tileWidthAt',
      'tilesOf',
      'toBase64',
      'treeHash',
      'verifyConsistency',
      'verifyInclusion',
    ]);
  });

  it('throws TlogError with a code on misuse', () => {
    expect(() => tlog.tilePath({ level: 0, index: 0, width: 0 })).toThrow(
      expect.objectContaining({ name: 'TlogError', code: 'invalid_argument' }),
    );
    expect(() => tlog.noteVerifier('nope')).toThrow(
      expect.objectContaining({ code: 'malformed_vkey' }),
    );
  });
});
