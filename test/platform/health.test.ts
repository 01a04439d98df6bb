import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

describe('health and platform basics', () => {
  const suite = useSuite(() => TestService.start());

  it('answers GET /v1/health without credentials', async () => {
    const t = suite.current;
    const response = await t.inject({ method: 'GET', url: '/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: expect.any(String), database: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^req_/);
  });

  it('answers an unknown route with 404 not_found in the error shape', async () => {
    const t = suite.current;
    const response = await t.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    const body = response.json();
    expect(body).toEqual({
      error: 'not_found',
      message: expect.any(String),
      request_id: response.headers['x-request-id'],
    });
  });

  it('publishes an OpenAPI 3.1 document of the tenant API only', async () => {
    const t = suite.current;
    const response = await t.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/v1/health');
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/backoffice'))).toBe(false);
  });

  it('serves a readable reference page at /docs', async () => {
    const t = suite.current;
    const response = await t.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('reports degraded with 503 when the database does not answer', async () => {
    const other = await TestService.start();
    await other.service.database.close();
    const response = await other.inject({ method: 'GET', url: '/v1/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
    await other.service.app.close();
  });
});
