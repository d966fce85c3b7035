-- One statement meters what an instance has to meter at one moment: the commits and
-- releases of finished calls, the calls whose answers are about to go out, and the
-- admissions of new calls (docs/decisions.md, "Admissions, answers and commits in one
-- statement"). The caller groups whatever arrives while its previous statement runs.
--
-- Exactness does not depend on the grouping: every key the statement changes is locked
-- first, in key_id order (so statements of several instances that share keys never
-- deadlock), and the admissions of one key are decided one after the other, in the
-- order they arrived, against the locked row's latest balances, window and calls in
-- flight. Each key's row is written once for its finishes and answers and once for its
-- admissions, however many calls the statement carries; a committed charge whose call
-- was answered does not touch it.
--
-- Returns one row per finished row (`finished`, with its id), per answered row
-- (`answered`), and per admission (`admit`, with its position `n` in the arrays, from 1):
-- r_key_id null for an unknown key; r_hits null for a revoked key (or one whose tier has
-- no plan), which changes nothing and writes no ledger row; otherwise `r_picked` is the
-- source that pays, `rate_limited`, `too_many_in_flight`, or null (nothing can pay), and
-- r_id, r_source and r_outcome describe the ledger row written.
CREATE FUNCTION storefront_meter(
  finish_ids bigint[], finish_outcomes text[], finish_charged boolean[], finish_errors text[],
  finish_statuses integer[], finish_nonces text[],
  answer_ids bigint[],
  admit_hashes text[], admit_credits integer[], admit_routes text[], admit_prices integer[],
  admit_requests text[], plans jsonb, planless text, instance text
) RETURNS TABLE (
  r_kind text, r_n integer, r_id bigint, r_key_id text, r_tier text, r_tail text,
  r_credits bigint, r_revoked_at timestamptz, r_per_minute integer, r_in_flight_cap integer,
  r_picked text, r_hits integer, r_reset numeric, r_source text, r_outcome text
) LANGUAGE plpgsql
-- Every statement below reaches its rows through a key (the ledger's id, the key's id or
-- hash). The function's plans are made once per connection, often while its tables are
-- still small, when a sequential scan looks cheaper; cached, it would then scan the whole
-- ledger for every batch. Without sequential scans the plans stay on the indexes.
SET enable_seqscan = off
AS $$
DECLARE
  minute timestamptz := date_trunc('minute', now());
  seconds_left numeric := extract(epoch FROM (date_trunc('minute', now()) + interval '1 minute' - now()));
  a record;
  current_key text := NULL;
  plan jsonb;
  pays text[];
  source text;
  has boolean;
  -- The current key's state while its admissions are decided.
  s_tier text; s_per_minute integer; s_cap integer; s_hits integer; s_credits bigint;
  s_included bigint; s_sandbox integer; s_in_flight integer; s_calls bigint;
  s_used boolean; s_live boolean;
  picked text; cost integer; new_id bigint; paying boolean;
  -- Each key's state after its admissions, written at the end.
  u_key text[] := '{}'; u_hits integer[] := '{}'; u_credits bigint[] := '{}';
  u_included bigint[] := '{}'; u_sandbox integer[] := '{}'; u_in_flight integer[] := '{}';
  u_calls bigint[] := '{}'; u_used boolean[] := '{}';
  -- The ledger rows of the admissions, written at the end.
  l_id bigint[] := '{}'; l_key text[] := '{}'; l_route text[] := '{}'; l_price integer[] := '{}';
  l_units integer[] := '{}'; l_source text[] := '{}'; l_outcome text[] := '{}';
  l_request text[] := '{}';
BEGIN
  -- The keys this statement changes: those of its admissions and answers, and those of
  -- its finishes that give something back or count a call off (a committed charge whose
  -- call was answered changes nothing on its key, so its commit does not wait for the
  -- key's lock, nor hold it against the key's next admissions). Each set is found through
  -- an index (the ledger's primary key, the keys' hash), then locked through the keys'
  -- primary key. Ledger rows are locked after every key, so no two statements wait on
  -- each other in a circle.
  PERFORM 1 FROM api_keys k
    WHERE k.key_id = ANY (
            ARRAY(SELECT l.key_id
                    FROM ledger l
                    JOIN unnest(finish_ids, finish_charged) AS f (id, charged) ON f.id = l.id
                   WHERE l.id = ANY (finish_ids) AND l.finished_at IS NULL
                     AND (NOT l.answered OR NOT f.charged))
            || ARRAY(SELECT l.key_id FROM ledger l WHERE l.id = ANY (answer_ids))
            || ARRAY(SELECT h.key_id FROM api_keys h WHERE h.key_hash = ANY (admit_hashes)))
    ORDER BY k.key_id
    FOR UPDATE OF k;

  -- Finishes: commit or release each row still pending; count it off its key's calls in
  -- flight unless its answer did, and give back what a release does not charge.
  IF cardinality(finish_ids) > 0 THEN
    RETURN QUERY
    WITH done AS (
      UPDATE ledger l
         SET outcome = i.outcome, charged = i.charged, error = i.error,
             upstream_status = i.upstream_status, receipt_nonce = i.receipt_nonce,
             finished_at = now()
        FROM unnest(finish_ids, finish_outcomes, finish_charged, finish_errors,
                    finish_statuses, finish_nonces)
               AS i (id, outcome, charged, error, upstream_status, receipt_nonce)
       WHERE l.id = i.id AND l.id = ANY (finish_ids) AND l.finished_at IS NULL
       RETURNING l.id, l.key_id, l.source, l.units, l.charged, l.answered
    ), per_key AS (
      SELECT d.key_id,
             count(*) FILTER (WHERE NOT d.answered) AS finished,
             sum(CASE WHEN NOT d.charged AND d.source = 'sandbox' THEN d.units ELSE 0 END) AS sandbox,
             sum(CASE WHEN NOT d.charged AND d.source = 'included' THEN d.units ELSE 0 END) AS included,
             sum(CASE WHEN NOT d.charged AND d.source = 'credits' THEN d.units ELSE 0 END) AS credits
        FROM done d GROUP BY d.key_id
    ), back AS (
      -- A committed charge whose call already left the count changes nothing on the key.
      UPDATE api_keys k SET
          in_flight = greatest(0, k.in_flight - p.finished),
          sandbox_remaining = k.sandbox_remaining + p.sandbox,
          included_remaining = k.included_remaining + p.included,
          credits = k.credits + p.credits
        FROM per_key p
       WHERE k.key_id = p.key_id AND (p.finished + p.sandbox + p.included + p.credits) > 0
       RETURNING k.key_id
    )
    SELECT 'finished', NULL::integer, d.id, d.key_id, NULL, NULL, NULL::bigint,
           NULL::timestamptz, NULL::integer, NULL::integer, NULL, NULL::integer,
           NULL::numeric, NULL, NULL
      FROM done d;
  END IF;

  -- Answers: charged calls whose answers are about to go out leave the calls in flight;
  -- their rows stay pending until their commits.
  IF cardinality(answer_ids) > 0 THEN
    RETURN QUERY
    WITH done AS (
      UPDATE ledger l SET answered = true
       WHERE l.id = ANY (answer_ids) AND l.finished_at IS NULL AND NOT l.answered
       RETURNING l.id, l.key_id
    ), per_key AS (
      SELECT d.key_id, count(*) AS answered FROM done d GROUP BY d.key_id
    ), back AS (
      UPDATE api_keys k SET in_flight = greatest(0, k.in_flight - p.answered)
        FROM per_key p WHERE k.key_id = p.key_id
       RETURNING k.key_id
    )
    SELECT 'answered', NULL::integer, d.id, d.key_id, NULL, NULL, NULL::bigint,
           NULL::timestamptz, NULL::integer, NULL::integer, NULL, NULL::integer,
           NULL::numeric, NULL, NULL
      FROM done d;
  END IF;

  -- Admissions, key by key in key_id order and each key's in arrival order. The keys are
  -- locked, so this statement reads their latest versions, the finishes and answers above
  -- included; each key's columns are used from its first attempt on.
  FOR a IN
    SELECT t.n::integer AS n, t.credits, t.route, t.price, t.request, kk.key_id, kk.tail,
           kk.revoked_at, kk.credits AS balance, kk.included_remaining, kk.sandbox_remaining,
           kk.in_flight, kk.calls,
           CASE WHEN kk.plan_ends_at <= now() THEN planless ELSE kk.tier END AS tier,
           CASE WHEN kk.window_start = minute THEN kk.window_hits ELSE 0 END AS hits
      FROM unnest(admit_hashes, admit_credits, admit_routes, admit_prices, admit_requests)
           WITH ORDINALITY AS t (hash, credits, route, price, request, n)
      LEFT JOIN api_keys kk ON kk.key_hash = t.hash
     ORDER BY kk.key_id NULLS FIRST, t.n
  LOOP
    r_kind := 'admit'; r_n := a.n; r_id := NULL; r_key_id := NULL; r_tier := NULL;
    r_tail := NULL; r_credits := NULL; r_revoked_at := NULL; r_per_minute := NULL;
    r_in_flight_cap := NULL; r_picked := NULL; r_hits := NULL; r_reset := NULL;
    r_source := NULL; r_outcome := NULL;
    IF a.key_id IS NULL THEN
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF current_key IS DISTINCT FROM a.key_id THEN
      IF current_key IS NOT NULL AND s_live THEN
        u_key := u_key || current_key; u_hits := u_hits || s_hits;
        u_credits := u_credits || s_credits; u_included := u_included || s_included;
        u_sandbox := u_sandbox || s_sandbox; u_in_flight := u_in_flight || s_in_flight;
        u_calls := u_calls || s_calls; u_used := u_used || s_used;
      END IF;
      current_key := a.key_id;
      plan := plans -> a.tier;
      s_live := a.revoked_at IS NULL AND plan IS NOT NULL;
      IF s_live THEN
        pays := ARRAY(SELECT jsonb_array_elements_text(plan -> 2));
      END IF;
      s_tier := a.tier; s_per_minute := (plan ->> 0)::integer; s_cap := (plan ->> 1)::integer;
      s_hits := a.hits; s_credits := a.balance; s_included := a.included_remaining;
      s_sandbox := a.sandbox_remaining; s_in_flight := a.in_flight; s_calls := a.calls;
      s_used := false;
    END IF;
    r_key_id := a.key_id; r_tier := s_tier; r_tail := a.tail; r_credits := s_credits;
    r_revoked_at := a.revoked_at;
    IF NOT s_live THEN
      RETURN NEXT;
      CONTINUE;
    END IF;
    r_per_minute := s_per_minute; r_in_flight_cap := s_cap; r_reset := seconds_left;
    s_hits := s_hits + 1;
    -- The order of the checks: the rate window, then the money, then the calls in flight.
    IF s_hits > s_per_minute THEN
      picked := 'rate_limited';
    ELSE
      -- The first of the plan's sources with something left pays.
      picked := NULL;
      FOREACH source IN ARRAY pays LOOP
        has := CASE source
                 WHEN 'sandbox' THEN s_sandbox > 0
                 WHEN 'included' THEN s_included > 0
                 WHEN 'credits' THEN s_credits >= a.credits
                 ELSE source = 'unmetered' END;
        IF has THEN
          picked := source;
          EXIT;
        END IF;
      END LOOP;
      IF picked IS NOT NULL AND s_in_flight >= s_cap THEN picked := 'too_many_in_flight'; END IF;
    END IF;
    r_hits := s_hits;
    -- A call refused for its calls in flight did no work: it is not counted in the window.
    IF picked = 'too_many_in_flight' THEN s_hits := s_hits - 1; END IF;
    paying := picked IN ('sandbox', 'included', 'credits', 'unmetered');
    cost := CASE picked WHEN 'credits' THEN a.credits WHEN 'sandbox' THEN 1 WHEN 'included' THEN 1 ELSE 0 END;
    IF paying THEN
      s_sandbox := s_sandbox - CASE WHEN picked = 'sandbox' THEN 1 ELSE 0 END;
      s_included := s_included - CASE WHEN picked = 'included' THEN 1 ELSE 0 END;
      s_credits := s_credits - CASE WHEN picked = 'credits' THEN a.credits ELSE 0 END;
      s_in_flight := s_in_flight + 1;
      s_calls := s_calls + 1;
      s_used := true;
    END IF;
    new_id := nextval('ledger_id_seq');
    r_picked := picked; r_id := new_id;
    r_source := CASE WHEN paying THEN picked ELSE 'none' END;
    r_outcome := CASE WHEN picked IN ('rate_limited', 'too_many_in_flight') THEN picked
                      WHEN paying THEN 'pending'
                      ELSE plan ->> 3 END;
    l_id := l_id || new_id; l_key := l_key || a.key_id; l_route := l_route || a.route;
    l_price := l_price || a.price; l_units := l_units || cost; l_source := l_source || r_source;
    l_outcome := l_outcome || r_outcome; l_request := l_request || a.request;
    RETURN NEXT;
  END LOOP;
  IF current_key IS NOT NULL AND s_live THEN
    u_key := u_key || current_key; u_hits := u_hits || s_hits;
    u_credits := u_credits || s_credits; u_included := u_included || s_included;
    u_sandbox := u_sandbox || s_sandbox; u_in_flight := u_in_flight || s_in_flight;
    u_calls := u_calls || s_calls; u_used := u_used || s_used;
  END IF;

  IF cardinality(u_key) > 0 THEN
    UPDATE api_keys x SET
        window_start = minute, window_hits = u.hits, credits = u.credits,
        included_remaining = u.included, sandbox_remaining = u.sandbox,
        in_flight = u.in_flight, calls = u.calls,
        last_used_at = CASE WHEN u.used THEN now() ELSE x.last_used_at END
      FROM unnest(u_key, u_hits, u_credits, u_included, u_sandbox, u_in_flight, u_calls, u_used)
        AS u (key_id, hits, credits, included, sandbox, in_flight, calls, used)
     WHERE x.key_id = u.key_id;
  END IF;
  IF cardinality(l_id) > 0 THEN
    INSERT INTO ledger (id, key_id, route, price, units, source, outcome, finished_at, request_id, instance_id)
    SELECT l.id, l.key_id, l.route, l.price, l.units, l.source, l.outcome,
           CASE WHEN l.outcome = 'pending' THEN NULL ELSE now() END, l.request, instance
      FROM unnest(l_id, l_key, l_route, l_price, l_units, l_source, l_outcome, l_request)
        AS l (id, key_id, route, price, units, source, outcome, request);
  END IF;
END;
$$;
