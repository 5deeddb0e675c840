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

describe('loadConfig: CAL_SESSION_IDLE_MINUTES, CAL_SESSION_MAX_DAYS, CAL_TRUST_PROXY', () => {
  it('should default to 720 idle minutes, 14 days at most, and no proxy believed', () => {
    const config = loadConfig({});
    assert.equal(config.sessionIdleMinutes, 720);
    assert.equal(config.sessionMaxDays, 14);
    assert.equal(config.trustProxy, false);
  });

  it('should read the limits, and CAL_TRUST_PROXY as a flag or a list of proxies', () => {
    const config = loadConfig({ CAL_SESSION_IDLE_MINUTES: '30', CAL_SESSION_MAX_DAYS: '1', CAL_TRUST_PROXY: '1' });
    assert.equal(config.sessionIdleMinutes, 30);
    assert.equal(config.sessionMaxDays, 1);
    assert.equal(config.trustProxy, true);
    assert.equal(loadConfig({ CAL_TRUST_PROXY: 'false' }).trustProxy, false);
    assert.deepEqual(loadConfig({ CAL_TRUST_PROXY: '10.0.0.1, 10.1.0.0/16 loopback ::1' }).trustProxy, [
      '10.0.0.1',
      '10.1.0.0/16',
      'loopback',
      '::1',
    ]);
  });

  it('should refuse bad values, naming each variable', () => {
    assert.throws(
      () =>
        loadConfig({ CAL_SESSION_IDLE_MINUTES: '0', CAL_SESSION_MAX_DAYS: 'forever', CAL_TRUST_PROXY: 'yes please' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const name of ['CAL_SESSION_IDLE_MINUTES', 'CAL_SESSION_MAX_DAYS', 'CAL_TRUST_PROXY'])
          assert.ok(
            error.problems.some((p) => p.startsWith(name)),
            `${name} in ${error.problems.join('; ')}`,
          );
        return true;
      },
    );
    assert.throws(() => loadConfig({ CAL_TRUST_PROXY: '10.0.0.0/33' }), ConfigError);
    assert.throws(() => loadConfig({ CAL_SESSION_IDLE_MINUTES: '2881', CAL_SESSION_MAX_DAYS: '2' }), ConfigError);
  });
});

describe('loadConfig: CAL_COMMON_SEARCHES, CAL_SQLITE_READERS', () => {
  it('should count 32 common words ahead by default, as many as given, or none', () => {
    assert.equal(loadConfig({}).commonSearches, 32);
    assert.equal(loadConfig({ CAL_COMMON_SEARCHES: '100' }).commonSearches, 100);
    assert.equal(loadConfig({ CAL_COMMON_SEARCHES: '0' }).commonSearches, 0);
  });

  it('should allow two SQLite reader threads by default (started once a read is slow), as many as given, or none', () => {
    assert.equal(loadConfig({}).sqliteReaders, 2);
    assert.equal(loadConfig({ CAL_SQLITE_READERS: '64' }).sqliteReaders, 64);
    assert.equal(loadConfig({ CAL_SQLITE_READERS: '0' }).sqliteReaders, 0);
  });

  it('should refuse a value that is not a count from 0 to 100, naming it', () => {
    for (const value of ['101', '-1', 'all', '2.5'])
      assert.throws(
        () => loadConfig({ CAL_COMMON_SEARCHES: value }),
        (error: unknown) =>
          error instanceof ConfigError && error.problems.some((p) => p.startsWith('CAL_COMMON_SEARCHES')),
        value,
      );
    assert.throws(
      () => loadConfig({ CAL_SQLITE_READERS: '65' }),
      (error: unknown) =>
        error instanceof ConfigError && error.problems.some((p) => p.startsWith('CAL_SQLITE_READERS')),
    );
  });
});
