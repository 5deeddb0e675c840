import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sharedValidatorFactory } from '../../src/http/schema-compilers.js';

// Validators are compiled once per process and shared by every app (src/http/schema-compilers.ts).
// As a custom compiler this one is not given Fastify's lower-casing of header schemas: it does its own.
const options = { customOptions: { coerceTypes: 'array' as const, allErrors: true, useDefaults: true, strict: false } };
const headers = {
  type: 'object',
  properties: { 'If-Match': { type: 'string', maxLength: 4 } },
  required: ['If-Match'],
};

describe('the shared schema compilers', () => {
  it('should validate a header schema named as the standard writes it against the lower-cased headers Node gives', () => {
    const validate = sharedValidatorFactory(
      {},
      options,
    )({ schema: headers, httpPart: 'headers', method: 'PUT', url: '/x' });
    assert.equal(validate({ 'if-match': '"ab"' }), true);
    assert.equal(validate({ 'if-match': '"abcdef"' }), false, 'its bound applies to the lower-cased name');
    assert.equal(validate({}), false, 'its required name is lower-cased too');
  });

  it('should hand every app the same function for the same schema, options and shared schemas', () => {
    const route = { schema: { type: 'object', properties: { n: { type: 'integer' } } }, httpPart: 'querystring' };
    const first = sharedValidatorFactory({}, options)({ ...route, method: 'GET', url: '/a' });
    const again = sharedValidatorFactory({}, options)({ ...structuredClone(route), method: 'GET', url: '/b' });
    assert.equal(first, again);
    const query = { n: '3' };
    assert.equal(first(query), true);
    assert.deepEqual(query, { n: 3 }, 'with the options given (types coerced)');
    const other = sharedValidatorFactory(
      {},
      { customOptions: { ...options.customOptions, coerceTypes: false } },
    )({
      ...route,
      method: 'GET',
      url: '/a',
    });
    assert.notEqual(other, first, 'other options, another function');
    assert.equal(other({ n: '3' }), false);
  });
});
