-- A crawl job's start page is admitted before its sitemaps are read, so the crawl begins
-- at once; `seeding` stays true until the sitemaps' URLs are admitted, and the job does
-- not end while it is true (docs/decisions.md, "Crawl jobs: the start page first").
ALTER TABLE crawl_jobs ADD COLUMN seeding boolean NOT NULL DEFAULT false;
