-- Every receipt signing key the service has used. The current key has retired_at NULL;
-- /.well-known/service-attestation publishes the retired ones so old receipts stay checkable.
CREATE TABLE signer_keys (
  address       text PRIMARY KEY,
  key_id        text NOT NULL,
  first_used_at timestamptz NOT NULL DEFAULT now(),
  retired_at    timestamptz
);
