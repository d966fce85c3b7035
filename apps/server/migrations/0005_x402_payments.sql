-- x402 payments (DESIGN §4, §5; docs/decisions.md, "x402: claim before verify"). One row
-- per payment presented: it is claimed by its (payer, nonce) before the facilitator is
-- asked, so an authorization is accepted once, across every instance on this database,
-- whatever the facilitator or the chain would say. The row then records how the payment
-- ended: settled (charged, with the transaction), released (never settled: not charged,
-- or the facilitator could not be reached) or failed (refused or not settled).

CREATE TABLE x402_payments (
  id            bigserial PRIMARY KEY,
  payer         text NOT NULL CHECK (payer = lower(payer)),     -- authorization.from
  nonce         text NOT NULL CHECK (nonce = lower(nonce)),     -- authorization.nonce, 0x + 64 hex
  route         text NOT NULL,
  amount        bigint NOT NULL CHECK (amount >= 0),            -- atomic units of the asset
  network       text NOT NULL,                                  -- CAIP-2
  asset         text NOT NULL,
  pay_to        text NOT NULL,
  x402_version  integer NOT NULL CHECK (x402_version IN (1, 2)),
  state         text NOT NULL DEFAULT 'claimed'
                  CHECK (state IN ('claimed', 'verified', 'settled', 'released', 'failed')),
  charged       boolean NOT NULL DEFAULT false,
  transaction   text,
  error         text,
  request_id    text,
  valid_before  timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz,
  UNIQUE (payer, nonce),
  -- Charged exactly when settled, and a settlement names its transaction.
  CHECK (charged = (state = 'settled')),
  CHECK (state <> 'settled' OR transaction IS NOT NULL),
  -- Finished exactly when in a final state.
  CHECK ((finished_at IS NULL) = (state IN ('claimed', 'verified')))
);
CREATE INDEX x402_payments_payer ON x402_payments (payer, id);
CREATE INDEX x402_payments_open ON x402_payments (valid_before) WHERE finished_at IS NULL;
