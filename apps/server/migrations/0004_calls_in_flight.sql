-- Calls in flight per key (docs/decisions.md, "Calls in flight"). The admission
-- statement counts a reservation here in the same statement that writes its pending
-- ledger row, and the finishing statement counts it off as it finishes the row, so the
-- column is the number of the key's pending rows, shared by every instance. It lives on
-- the key's row because the admission locks that row: a count of ledger rows in the same
-- statement would read the statement's snapshot and miss reservations committed while
-- it waited for the lock.
ALTER TABLE api_keys
  ADD COLUMN in_flight integer NOT NULL DEFAULT 0 CHECK (in_flight >= 0);
UPDATE api_keys k SET in_flight = p.n
  FROM (SELECT key_id, count(*) AS n FROM ledger WHERE finished_at IS NULL GROUP BY key_id) p
 WHERE k.key_id = p.key_id;

-- A call refused because the key has as many calls in flight as its plan allows.
ALTER TABLE ledger DROP CONSTRAINT ledger_outcome_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_outcome_check CHECK (outcome IN (
  'pending', 'delivered', 'delivered_free', 'undeliverable', 'failed', 'abandoned',
  'sandbox_exhausted', 'insufficient_credits', 'rate_limited', 'too_many_in_flight'));
