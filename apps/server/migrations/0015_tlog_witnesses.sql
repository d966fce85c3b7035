-- Witnesses' cosignatures of the log's checkpoints (docs/decisions.md, "A witness for the
-- receipt log"): one line per witness (`<name>+<key ID>`) and tree size, kept once it
-- verifies against the witness's key. `/log/checkpoint` carries the lines of its size; a
-- witness's largest cosigned size is where the next consistency proof starts.
CREATE TABLE tlog_cosignatures (
  witness text NOT NULL,
  size bigint NOT NULL,
  line text NOT NULL,
  signed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (witness, size)
);
