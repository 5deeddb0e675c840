import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.js';

/** The browser-facing settings of issue 25: defaults, accepted forms, and every bad value named at once. */
describe('loadConfig: CAL_TRUSTED_ORIGINS, CAL_FRAME_ANCESTORS, CAL_REQUEST_TIMEOUT_MS', () => {
  it('should default to no trusted origin, framing by the site itself and a 30 s request timeout', () => {
    const config = loadConfig({});
    assert.deepEqual(config.trustedOrigins, []);
    assert.deepEqual(config.frameAncestors, ["'self'"]);
    assert.equal(config.requestTimeoutMs, 30_000);
  });

  it('should read origins and frame sources as lists, origins lower-cased', () => {
    const config = loadConfig({
      CAL_TRUSTED_ORIGINS: 'https://Admin.Example.org, http://localhost:5173',
      CAL_FRAME_ANCESTORS: "'self' https://*.example.org",
      CAL_REQUEST_TIMEOUT_MS: '0',
    });
    assert.deepEqual(config.trustedOrigins, ['https://admin.example.org', 'http://localhost:5173']);
    assert.deepEqual(config.frameAncestors, ["'self'", 'https://*.example.org']);
    assert.equal(config.requestTimeoutMs, 0);
  });

  it('should refuse bad values, naming each variable', () => {
    assert.throws(
      () =>
        loadConfig({
          CAL_TRUSTED_ORIGINS: 'https://example.org/admin',
          CAL_FRAME_ANCESTORS: "'none' https://example.org",
          CAL_REQUEST_TIMEOUT_MS: 'soon',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const name of ['CAL_TRUSTED_ORIGINS', 'CAL_FRAME_ANCESTORS', 'CAL_REQUEST_TIMEOUT_MS'])
          assert.ok(
            error.problems.some((p) => p.startsWith(name)),
            `${name} in ${error.problems.join('; ')}`,
          );
        return true;
      },
    );
    assert.throws(() => loadConfig({ CAL_FRAME_ANCESTORS: "javascript:alert(1) 'unsafe-inline'" }), ConfigError);
    assert.throws(() => loadConfig({ CAL_TRUSTED_ORIGINS: 'ftp://example.org' }), ConfigError);
  });
});
