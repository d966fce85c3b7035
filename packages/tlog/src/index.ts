export {
  type Checkpoint,
  formatCheckpoint,
  openCheckpoint,
  parseCheckpoint,
} from './checkpoint.js';
export {
  type CosignatureVerifier,
  type Cosigner,
  cosignatureVerifier,
  cosignedMessage,
  ed25519Cosigner,
  NOTE_ALG_COSIGNATURE_V1,
} from './cosignature.js';
export { TLOG_ERROR_CODES, TlogError, type TlogErrorCode } from './errors.js';
export {
  bytesEqual,
  emptyRoot,
  fromBase64,
  HASH_SIZE,
  leafHash,
  nodeHash,
  toBase64,
} from './hash.js';
export {
  type Ed25519NoteKey,
  ed25519NoteKey,
  isValidKeyName,
  NOTE_ALG_ED25519,
  type NoteSignature,
  type NoteSigner,
  type NoteVerifier,
  noteKeyId,
  noteVerifier,
  type OpenedNote,
  openNote,
  signNote,
} from './note.js';
export {
  decodeEntryBundle,
  encodeEntryBundle,
  encodeTile,
  entriesPath,
  MAX_ENTRY_SIZE,
  parseTilePath,
  TILE_HEIGHT,
  TILE_WIDTH,
  type Tile,
  type TilePath,
  tileNodes,
  tilePath,
  tilesOf,
  tileWidthAt,
} from './tiles.js';
export {
  type Appended,
  appendLeaves,
  foldHashes,
  type HashReader,
  type NodeId,
  proveConsistency,
  proveInclusion,
  type StoredNode,
  subtreeNodes,
  treeHash,
  verifyConsistency,
  verifyInclusion,
} from './tree.js';
