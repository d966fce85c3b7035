import { ERROR_CATALOGUE, ERROR_STATUS, type ErrorCode, StorefrontError } from '@storefront/core';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStatus } from '../src/http/error-status.js';
import { errorHandler } from '../src/middleware/errors.js';
import { refusedStatus } from '../src/pipeline/charge.js';
import type { WorkOutcome } from '../src/pipeline/outcome.js';
import { REGISTRY } from '../src/registry/index.js';
import type { AnyRoute } from '../src/registry/types.js';
import { silentLogger, testApp } from './helpers.js';

let t: Awaited<ReturnType<typeof testApp>>;
let catalog: Record<string, unknown>;
let openapi: { paths: Record<string, { get: { responses: Record<string, unknown> } }> };

beforeAll(async () => {
  t = await testApp();
  catalog = (await request(t.app).get('/catalog').expect(200)).body;
  openapi = (await request(t.app).get('/openapi.json').expect(200)).body;
}, 60_000);

afterAll(async () => {
  await t?.dispose();
});

/** An `ok:false` outcome of a route with `code`, delivered or answered before charging. */
function failure(code: ErrorCode, kind: 'delivered' | 'undeliverable'): WorkOutcome {
  const body = { ok: false, url: 'http://a.example/', error: code, message: code };
  return kind === 'delivered'
    ? { kind, ok: false, body, sign: null, error: code, upstreamStatus: 200 }
    : { kind, body, error: code, upstreamStatus: 200 };
}

/** The codes an OpenAPI response of a paid operation lists. */
function codesIn(response: unknown): string[] {
  const schema = (response as { content: { 'application/json': { schema: unknown } } }).content[
    'application/json'
  ].schema as { allOf?: { properties?: { error?: { enum: string[] } } }[] };
  return schema.allOf?.[1]?.properties?.error?.enum ?? [];
}

describe('one HTTP status per error code', () => {
  const server = express();
  server.get('/throw/:code', (req) => {
    throw new StorefrontError(req.params.code as ErrorCode, 'thrown');
  });
  server.use(errorHandler(silentLogger));

  it.each(ERROR_CATALOGUE.map((entry) => [entry.code, entry] as const))(
    '%s: the answer, /catalog and /openapi.json agree with the table',
    async (code, entry) => {
      const status = ERROR_STATUS[code];
      expect(entry.status).toBe(status);

      // /catalog publishes the table.
      const published = (catalog.errors as { code: string; status: unknown }[]).find(
        (row) => row.code === code,
      );
      expect(published).toMatchObject({ code, status, origin: entry.origin });

      // The server's own answers.
      const thrown = await request(server).get(`/throw/${code}`);
      if (status === 'result') {
        // Never thrown: delivered inside a result. Thrown by mistake, it is a fault.
        expect(errorStatus(code)).toBe(500);
        expect(thrown.status).toBe(500);
        expect(thrown.body.error).toBe('internal_error');
      } else {
        expect(errorStatus(code)).toBe(status);
        expect(thrown.status).toBe(status);
        expect(thrown.body.error).toBe(code);
      }

      for (const route of REGISTRY as readonly AnyRoute[]) {
        const responses = openapi.paths[route.path]?.get.responses as Record<string, unknown>;
        const beforeCharging = route.chargeRule === 'before-charging';
        const failureStatus = (catalog.routes as { name: string; failureStatus: number }[]).find(
          (row) => row.name === route.name,
        )?.failureStatus;
        if (status === 'result') {
          // One status per route: 503 before charging, 200 in the result elsewhere.
          expect(failureStatus).toBe(beforeCharging ? 503 : 200);
          expect(refusedStatus(failure(code, 'delivered'))).toBe(null);
          expect(refusedStatus(failure(code, 'undeliverable'))).toBe(503);
          if (beforeCharging) expect(codesIn(responses['503'])).toContain(code);
          else expect((responses['200'] as { description: string }).description).toContain(code);
        } else {
          // The same status on every route, whichever way the outcome came.
          expect(refusedStatus(failure(code, 'delivered'))).toBe(status);
          expect(refusedStatus(failure(code, 'undeliverable'))).toBe(status);
          const listed = Object.entries(responses)
            .filter(([, response]) => codesIn(response).includes(code))
            .map(([answer]) => Number(answer));
          expect(listed.every((answer) => answer === status)).toBe(true);
        }
      }
    },
  );

  it('lists not_found as 404 exactly on the routes that answer it', () => {
    for (const route of REGISTRY as readonly AnyRoute[]) {
      const responses = openapi.paths[route.path]?.get.responses as Record<string, unknown>;
      expect(responses['404'] !== undefined, route.name).toBe(route.notFound !== undefined);
      if (route.notFound !== undefined)
        expect(codesIn(responses['404'])).toStrictEqual(['not_found']);
    }
    expect(
      (REGISTRY as readonly AnyRoute[]).filter((r) => r.notFound).map((r) => r.name),
    ).toStrictEqual(['table', 'validate', 'pdf']);
  });

  it('documents 429 with both of its codes and Retry-After, and 405 for other methods', () => {
    for (const route of REGISTRY) {
      const path = openapi.paths[route.path] as unknown as Record<string, unknown>;
      const responses = (path.get as { responses: Record<string, unknown> }).responses;
      expect(codesIn(responses['429'])).toStrictEqual(['rate_limited', 'too_many_in_flight']);
      expect(responses['429']).toHaveProperty('headers.Retry-After');
      expect(path['x-other-methods']).toStrictEqual({
        $ref: '#/components/responses/MethodNotAllowed',
      });
    }
  });
});
