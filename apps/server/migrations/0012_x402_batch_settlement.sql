-- x402 `batch-settlement` (docs/decisions.md, "Batch settlement"). A payer deposits into
-- an on-chain channel once; each paid call then carries a cumulative voucher, and the
-- service redeems the vouchers in batches.

-- The channels, as the official server scheme of `@x402/evm` keeps them (its `Channel`
-- record, JSON): what each payer has deposited and been charged, the latest voucher,
-- and the call in progress. Every change is made holding the row's lock (a new channel
-- is inserted only if absent), so instances never interleave on one channel.
CREATE TABLE x402_channels (
  channel_id  text PRIMARY KEY CHECK (channel_id = lower(channel_id)),
  state       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- The books: one row per delivered call paid with a voucher, written in the same
-- transaction that adds its price to the channel's charged total, with the signed
-- result it paid for (kept for a retry of the same voucher, whose answer was lost).
-- The sum of `amount` of a channel is its charged total: what redemption may claim.
CREATE TABLE x402_vouchers (
  channel_id    text NOT NULL CHECK (channel_id = lower(channel_id)),
  -- The voucher's cumulative `maxClaimableAmount`: the channel's charged total after this call.
  cumulative    numeric(78, 0) NOT NULL CHECK (cumulative > 0),
  amount        bigint NOT NULL CHECK (amount > 0),
  payer         text NOT NULL CHECK (payer = lower(payer)),
  route         text NOT NULL,
  network       text NOT NULL,
  call_hash     text NOT NULL,
  payload_hash  text NOT NULL UNIQUE,
  request_id    text,
  -- The signed answer (JSON text: jsonb refuses the \u0000 a fetched page may hold).
  result        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel_id, cumulative)
);
