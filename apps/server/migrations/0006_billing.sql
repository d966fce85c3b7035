-- Subscriptions and credit packs paid through a payment processor (DESIGN §5;
-- docs/decisions.md, "Billing"). A processor webhook event is processed exactly once:
-- its id is claimed in `webhook_events` in the same transaction as what it grants, and
-- every grant (and every allowance that lapses) is a ledger row.

-- Where a key's plan came from, and when it stops: past `plan_ends_at` the key is
-- admitted as `prepaid` (credits only) whatever `tier` still says, until the sweeper
-- (or the event that ended it) writes the lapse down.
ALTER TABLE api_keys
  ADD COLUMN subscription_id text,
  ADD COLUMN plan_ends_at    timestamptz;

-- Every checkout the service opened, on either processor. The processor's session
-- metadata carries the key id (never the key); this row is what the webhook grants.
CREATE TABLE checkouts (
  id           text PRIMARY KEY,                 -- the processor's session id (cs_…)
  processor    text NOT NULL CHECK (processor IN ('stripe', 'development')),
  key_id       text NOT NULL REFERENCES api_keys (key_id),
  kind         text NOT NULL CHECK (kind IN ('subscription', 'credits')),
  tier         text CHECK (tier IN ('pro', 'business', 'enterprise')),
  credits      bigint CHECK (credits > 0),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  url          text NOT NULL,
  state        text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'completed')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK ((kind = 'subscription') = (tier IS NOT NULL)),
  CHECK ((kind = 'credits') = (credits IS NOT NULL)),
  CHECK ((state = 'completed') = (completed_at IS NOT NULL))
);
CREATE INDEX checkouts_key ON checkouts (key_id, created_at);

-- Subscriptions as the processor's events describe them. `key_id` is null only for a
-- subscription whose deletion arrived first and named no key (a tombstone, so that a
-- late checkout of it grants nothing).
CREATE TABLE subscriptions (
  id                   text PRIMARY KEY,         -- the processor's subscription id (sub_…)
  key_id               text REFERENCES api_keys (key_id),
  tier                 text NOT NULL CHECK (tier IN ('pro', 'business', 'enterprise')),
  customer             text,
  status               text NOT NULL CHECK (status IN ('active', 'canceling', 'past_due', 'ended')),
  current_period_end   timestamptz,              -- latest period end the processor reported
  paid_through         timestamptz,              -- end of the last period a paid invoice covered
  granted_through      timestamptz,              -- end of the last period whose allowance was granted
  grants               integer NOT NULL DEFAULT 0 CHECK (grants >= 0),
  ends_at              timestamptz,              -- when the tier stops (cancelled, unpaid, deleted)
  last_event_at        timestamptz,              -- creation time of the newest subscription event applied
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_key ON subscriptions (key_id);

-- One row per processor event, claimed before it is applied, in the same transaction.
CREATE TABLE webhook_events (
  id          text PRIMARY KEY,                  -- the processor's event id (evt_…)
  type        text NOT NULL,
  processor   text NOT NULL CHECK (processor IN ('stripe', 'development')),
  created     timestamptz,                       -- the event's own creation time
  outcome     text NOT NULL,                     -- applied, or ignored and why
  received_at timestamptz NOT NULL DEFAULT now()
);

-- Grants and lapses in the ledger: `granted` adds `units` to `source` (allowance calls,
-- credits, or an unmetered plan), `lapsed` records an allowance that ended unused.
ALTER TABLE ledger ADD COLUMN event_id text;
ALTER TABLE ledger DROP CONSTRAINT ledger_outcome_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_outcome_check CHECK (outcome IN (
  'pending', 'delivered', 'delivered_free', 'undeliverable', 'failed', 'abandoned',
  'sandbox_exhausted', 'insufficient_credits', 'rate_limited', 'too_many_in_flight',
  'granted', 'lapsed'));
-- The usage chart reads a key's rows by day.
CREATE INDEX ledger_key_created ON ledger (key_id, created_at);
-- The sweeper finds plans that have ended.
CREATE INDEX api_keys_plan_ends ON api_keys (plan_ends_at) WHERE plan_ends_at IS NOT NULL;
