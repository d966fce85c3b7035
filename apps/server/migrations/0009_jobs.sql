-- Crawl jobs (docs/decisions.md, "Crawl jobs"). The queue itself is graphile-worker's,
-- in its own schema of the same database; these tables hold what a job is and what it
-- made, so a page, its charge and its webhook event commit in one transaction.

CREATE TABLE crawl_jobs (
  id            text PRIMARY KEY,
  door          text NOT NULL CHECK (door IN ('key', 'x402')),
  key_id        text REFERENCES api_keys (key_id),   -- the key door's key; null for x402
  token_hash    text,                                -- sha256 hex of the x402 job token
  status        text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  params        jsonb NOT NULL,                      -- url, limit, maxDepth, paths, sameOrigin, format
  route         text NOT NULL,                       -- the single-page product of each page
  page_price    integer NOT NULL,                    -- catalog price per page, USDC atomic units
  page_credits  integer NOT NULL,                    -- the same price in credits (key door)
  page_limit    integer NOT NULL CHECK (page_limit BETWEEN 1 AND 10000),
  -- The key door's reservation, in units of `source` (credits, or calls of an allowance):
  -- `unit_cost` per page, `reserved` taken at creation, `released` given back at the end.
  source        text CHECK (source IN ('sandbox', 'included', 'credits', 'unmetered')),
  unit_cost     integer NOT NULL DEFAULT 0,
  reserved      bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  released      bigint NOT NULL DEFAULT 0 CHECK (released >= 0),
  total         integer NOT NULL DEFAULT 0,          -- URLs admitted to the crawl
  completed     integer NOT NULL DEFAULT 0,          -- pages delivered (charged)
  failed        integer NOT NULL DEFAULT 0,          -- pages that failed (free)
  charged       bigint NOT NULL DEFAULT 0,           -- units of `source` (key) or atomic units (x402)
  payment       jsonb,                               -- x402: scheme, payer, authorization, settlement
  webhook       jsonb,                               -- {url, events, secret}
  manifest      jsonb,                               -- the signed manifest, once done
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz,
  CHECK ((door = 'key') = (key_id IS NOT NULL AND source IS NOT NULL)),
  CHECK (completed + failed <= total),
  CHECK (door = 'x402' OR charged + released <= reserved)
);
CREATE INDEX crawl_jobs_key ON crawl_jobs (key_id, created_at) WHERE key_id IS NOT NULL;

-- Every URL admitted to a job, once (the primary key is the de-duplication): queued
-- until its page task commits it as done, failed or skipped.
CREATE TABLE crawl_frontier (
  job_id  text NOT NULL REFERENCES crawl_jobs (id) ON DELETE CASCADE,
  url     text NOT NULL,
  depth   integer NOT NULL,
  state   text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'skipped')),
  PRIMARY KEY (job_id, url)
);

-- The pages a job delivered or failed, in the order they were made (`seq` from 1).
CREATE TABLE crawl_pages (
  job_id        text NOT NULL REFERENCES crawl_jobs (id) ON DELETE CASCADE,
  seq           integer NOT NULL,
  url           text NOT NULL,
  ok            boolean NOT NULL,
  charged       integer NOT NULL DEFAULT 0,
  content_hash  text,                                -- the receipt's contentHash, on success
  result        jsonb NOT NULL,                      -- the single-page product's answer, receipt included
  PRIMARY KEY (job_id, seq),
  UNIQUE (job_id, url)
);

-- robots.txt and politeness per origin of a job: read once, shared by its workers.
CREATE TABLE crawl_hosts (
  job_id       text NOT NULL REFERENCES crawl_jobs (id) ON DELETE CASCADE,
  origin       text NOT NULL,
  robots       jsonb,                                -- the parsed rules that apply, null: allow all
  delay_ms     integer NOT NULL DEFAULT 0,           -- crawl-delay
  next_at      timestamptz NOT NULL DEFAULT now(),   -- the next fetch slot under crawl-delay
  PRIMARY KEY (job_id, origin)
);

-- The webhook outbox: one row per event, written in the transaction that made it;
-- delivered in `seq` order (page events before `completed`), at least once.
CREATE TABLE job_events (
  seq           bigserial PRIMARY KEY,
  id            text NOT NULL UNIQUE,                -- the Standard Webhooks `webhook-id`
  job_id        text NOT NULL REFERENCES crawl_jobs (id) ON DELETE CASCADE,
  type          text NOT NULL,
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  attempts      integer NOT NULL DEFAULT 0,
  delivered_at  timestamptz,
  failed_at     timestamptz,                         -- given up after the last attempt
  last_error    text
);
CREATE INDEX job_events_pending ON job_events (job_id, seq)
  WHERE delivered_at IS NULL AND failed_at IS NULL;

-- A page charged to a key is a ledger row like any call's, tied to its job.
ALTER TABLE ledger ADD COLUMN job_id text;
CREATE INDEX ledger_job ON ledger (job_id) WHERE job_id IS NOT NULL;

-- Worker processes hold a lease like instances do; a task locked by a graphile-worker
-- pool that no live lease names is unlocked, so a killed process's tasks run elsewhere.
ALTER TABLE instances ADD COLUMN worker_ids text[] NOT NULL DEFAULT '{}';

-- An x402 payment (payer, nonce) pays for one job.
CREATE UNIQUE INDEX crawl_jobs_payment ON crawl_jobs ((payment->>'payer'), (payment->>'nonce'))
  WHERE door = 'x402';
