-- The rate window moves onto the key's row (docs/decisions.md, "Rate windows"): the
-- admission of a call locks and updates that row anyway, so counting the call there
-- takes one table write per call instead of two. The old windows lasted a minute.
ALTER TABLE api_keys
  ADD COLUMN window_start timestamptz,
  ADD COLUMN window_hits  integer NOT NULL DEFAULT 0 CHECK (window_hits >= 0);
DROP TABLE rate_windows;

-- A ledger row is pending exactly while it has no finish time; finishing statements
-- find pending rows by `finished_at IS NULL` (see finishAll in metering/store.ts).
ALTER TABLE ledger ADD CONSTRAINT ledger_pending_unfinished
  CHECK ((outcome = 'pending') = (finished_at IS NULL));
