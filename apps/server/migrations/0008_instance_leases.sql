-- Instance leases and answered calls (docs/decisions.md, "Instance leases" and "A call
-- leaves the in-flight count before its answer").

-- Every running instance holds a lease: it writes `heartbeat_at` every second. Another
-- instance that finds a lease expired releases the reservations the instance left
-- pending (it crashed, or lost the database) and deletes the lease.
CREATE TABLE instances (
  id           text PRIMARY KEY,
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);

-- The instance that holds a reservation; null on rows written before leases existed
-- (the reservation-age sweep releases those).
ALTER TABLE ledger ADD COLUMN instance_id text;

-- A charged call whose answer is on its way: it no longer counts in the key's calls in
-- flight (`api_keys.in_flight` was decremented when this was set), though its row stays
-- pending until the charge is committed once the answer has been written.
ALTER TABLE ledger ADD COLUMN answered boolean NOT NULL DEFAULT false;
