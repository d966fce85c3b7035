-- The public JWK of each signer key's HTTP-signature key (RFC 9421, derived from the
-- signer key), so /.well-known/jwks.json keeps publishing it once the key is retired.
ALTER TABLE signer_keys ADD COLUMN http_jwk jsonb;
