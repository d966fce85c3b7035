-- API keys, the per-attempt ledger, rate windows and the key-issuance log (DESIGN §5).
-- Money is integer credits (1 credit = $0.001); CHECK constraints are the backstop that
-- keeps every balance from going negative whatever the application does.

CREATE TABLE api_keys (
  key_id             text PRIMARY KEY,
  key_hash           text NOT NULL UNIQUE,           -- sha256 hex of the raw key; the key itself is never stored
  tail               text NOT NULL,                  -- last 4 characters, for support
  env                text NOT NULL CHECK (env IN ('test', 'live')),
  tier               text NOT NULL CHECK (tier IN ('sandbox', 'prepaid', 'pro', 'business', 'enterprise')),
  label              text,
  credits            bigint NOT NULL DEFAULT 0 CHECK (credits >= 0),
  included_remaining bigint NOT NULL DEFAULT 0 CHECK (included_remaining >= 0),
  sandbox_remaining  integer NOT NULL DEFAULT 0 CHECK (sandbox_remaining >= 0),
  calls              bigint NOT NULL DEFAULT 0,
  created_ip         text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  last_used_at       timestamptz,
  revoked_at         timestamptz,
  CHECK ((env = 'test') = (tier = 'sandbox'))
);

-- One row per attempt that reached the meter. A row is written 'pending' together with
-- the reservation, in the same statement; finishing it commits or releases the
-- reservation. Rows left pending by a crash are released by the sweeper.
CREATE TABLE ledger (
  id              bigserial PRIMARY KEY,
  key_id          text NOT NULL REFERENCES api_keys (key_id),
  route           text NOT NULL,
  price           integer NOT NULL,                  -- catalog price in USDC atomic units (6 decimals)
  units           integer NOT NULL DEFAULT 0,        -- reserved from `source`: credits, or 1 call of an allowance
  source          text NOT NULL CHECK (source IN ('none', 'sandbox', 'included', 'credits', 'unmetered')),
  charged         boolean NOT NULL DEFAULT false,
  outcome         text NOT NULL CHECK (outcome IN (
                    'pending', 'delivered', 'delivered_free', 'undeliverable', 'failed',
                    'abandoned', 'sandbox_exhausted', 'insufficient_credits', 'rate_limited')),
  error           text,
  upstream_status integer,
  receipt_nonce   text,
  request_id      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
CREATE INDEX ledger_key_time ON ledger (key_id, id);
CREATE INDEX ledger_pending ON ledger (created_at) WHERE outcome = 'pending';

-- Fixed one-minute windows per key.
CREATE TABLE rate_windows (
  key_id       text NOT NULL,
  window_start timestamptz NOT NULL,
  hits         integer NOT NULL,
  PRIMARY KEY (key_id, window_start)
);

-- Key issuance per client IP (the 20 per hour cap).
CREATE TABLE key_issuance (
  id        bigserial PRIMARY KEY,
  ip        text NOT NULL,
  issued_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX key_issuance_ip_time ON key_issuance (ip, issued_at);
