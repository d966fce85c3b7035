-- The transparency log of every receipt (docs/decisions.md, "A transparency log of every
-- receipt"): C2SP tlog-tiles over RFC 6962 hashes, with signed-note checkpoints.
--
-- A receipt's entry is written to tlog_pending by the statement that books its call (the
-- meter's, an x402 payment's, a voucher's, a crawl page's), so the two commit together.
-- The sequencer (one at a time: it holds tlog_state's row) moves pending entries into the
-- log in order, stores the node hashes they complete, and signs a new checkpoint, in one
-- transaction.
CREATE TABLE tlog_pending (
  id bigserial PRIMARY KEY,
  entry text NOT NULL
);

-- The log's entries, by index; `receipt_hash` is SHA-256 of the entry (the lookup key).
CREATE TABLE tlog_entries (
  idx bigint PRIMARY KEY,
  entry text NOT NULL,
  receipt_hash bytea NOT NULL
);
CREATE INDEX tlog_entries_receipt_hash ON tlog_entries (receipt_hash);

-- The complete nodes of the tree at the levels tiles hold (0, 8, 16, …): `level` 0 holds
-- the leaf hashes; a node at `level` and `idx` covers leaves [idx·2^level, (idx+1)·2^level).
-- Written once, never changed: tiles are read from here, and the nodes between two tile
-- levels are hashed from the level below them (at most 128 hashes each), as a tile
-- reader does.
CREATE TABLE tlog_hashes (
  level smallint NOT NULL,
  idx bigint NOT NULL,
  hash bytea NOT NULL,
  PRIMARY KEY (level, idx)
);

-- The log's current size, the hashes of its frontier (the perfect subtrees it is folded
-- from, largest first, hex: where the next append starts) and its signed checkpoint.
CREATE TABLE tlog_state (
  id integer PRIMARY KEY CHECK (id = 1),
  size bigint NOT NULL,
  frontier text[] NOT NULL,
  checkpoint text
);
INSERT INTO tlog_state (id, size, frontier, checkpoint) VALUES (1, 0, '{}', NULL);

-- Every checkpoint signed, by size (a size is signed once per origin and key), so that a
-- reader or a witness can ask for proofs between any two.
CREATE TABLE tlog_checkpoints (
  size bigint PRIMARY KEY,
  checkpoint text NOT NULL,
  signed_at timestamptz NOT NULL DEFAULT now()
);
