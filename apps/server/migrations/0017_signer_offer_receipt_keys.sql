-- The public keys of the x402 offers and receipts each signer key signed with
-- (docs/decisions.md, "x402 offers and receipts"): `{"eip712": <address>, "jws": <JWK>}`,
-- so that a receipt signed before a rotation still verifies against a published key
-- (`offerReceipt.retired` in /.well-known/service-attestation, and the JWKS).
ALTER TABLE signer_keys ADD COLUMN offer_receipt jsonb;
