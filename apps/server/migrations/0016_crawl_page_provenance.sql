-- The `response-provenance` claim of each delivered page of a crawl job (docs/decisions.md,
-- "Response provenance (x402)"): made when the page is, as the single-page call
-- `GET /buy/<format>?url=<page>` would carry it, and served beside the page.
ALTER TABLE crawl_pages ADD COLUMN provenance jsonb;
