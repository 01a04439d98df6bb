import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('METRICS_PORT, the port of GET /metrics', () => {
  it("defaults to Prometheus's usual exporter port; 0 picks a free one; off serves none", () => {
    expect(loadConfig({}).metricsPort).toBe(9464);
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBe(9464);
    expect(loadConfig({ METRICS_PORT: '0' }).metricsPort).toBe(0);
    expect(loadConfig({ METRICS_PORT: '9100' }).metricsPort).toBe(9100);
    expect(loadConfig({ METRICS_PORT: 'off' }).metricsPort).toBeUndefined();
  });

  it('refuses anything else, saying what it takes', () => {
    for (const value of ['no', '65536', '-1', '9464.5']) {
      expect(() => loadConfig({ METRICS_PORT: value })).toThrow(ConfigError);
      expect(() => loadConfig({ METRICS_PORT: value })).toThrow(
        /METRICS_PORT must be an integer from 0 to 65535, or off/,
      );
    }
  });
});
