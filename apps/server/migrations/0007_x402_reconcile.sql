-- x402 payments whose settlement outcome is not known (docs/decisions.md, "x402: a lost
-- settlement answer"). A charged call marks its payment `settling` (with the signed
-- result it is about to deliver) before the facilitator is asked to settle; when no
-- usable answer comes back and the chain cannot tell yet, the row becomes `unknown`.
-- A retry of the same payment, or the sweep, finds out on chain and records the truth:
-- `settled` (the stored result is then handed to a retry of the same payment) or
-- `released` (the authorization expired unused). A payment released before settlement
-- was attempted can be claimed again (`attempts` counts the claims).

ALTER TABLE x402_payments DROP CONSTRAINT x402_payments_state_check;
ALTER TABLE x402_payments DROP CONSTRAINT x402_payments_check2;
ALTER TABLE x402_payments ADD CONSTRAINT x402_payments_state_check
  CHECK (state IN ('claimed', 'verified', 'settling', 'unknown', 'settled', 'released', 'failed'));
ALTER TABLE x402_payments ADD CONSTRAINT x402_payments_finished_check
  CHECK ((finished_at IS NULL) = (state IN ('claimed', 'verified', 'settling', 'unknown')));

ALTER TABLE x402_payments
  ADD COLUMN attempts     integer NOT NULL DEFAULT 1,
  -- The payer's `payment-identifier` id (v2 extension), when it sent one.
  ADD COLUMN payment_id   text,
  -- SHA-256 of the call (route and parameters) and of the payment header as sent: a
  -- stored result goes only to the same call paid with the same payment.
  ADD COLUMN call_hash    text,
  ADD COLUMN payload_hash text,
  -- When settlement was last attempted.
  ADD COLUMN settling_at  timestamptz,
  -- The signed answer of a charged call (its JSON text: text, not jsonb, because jsonb
  -- refuses the \u0000 a fetched page may hold), kept while its settlement is unknown
  -- and, once paid, for a retry that comes for it; never on a released or failed row.
  ADD COLUMN result       text,
  ADD CONSTRAINT x402_payments_result_check
    CHECK (result IS NULL OR state IN ('settling', 'unknown', 'settled'));

CREATE INDEX x402_payments_payment_id ON x402_payments (payer, payment_id)
  WHERE payment_id IS NOT NULL;
CREATE INDEX x402_payments_unsettled ON x402_payments (settling_at)
  WHERE state IN ('settling', 'unknown');
