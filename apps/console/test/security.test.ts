import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkMutation, hostAllowed, normalizeOrigin, securityHeaders, selfOrigin, tokensEqual } from '../src/server/security.ts';

const TOKEN = 'a'.repeat(43);
const headers = (h: Record<string, string>) => new Headers(h);

describe('checkMutation', () => {
  test('accepts a same-origin browser request carrying the token', () => {
    const v = checkMutation(headers({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'x-engram-token': TOKEN }), TOKEN, []);
    assert.deepEqual(v, { ok: true });
  });

  test('accepts a script without Origin when the token is right', () => {
    assert.equal(checkMutation(headers({ host: '127.0.0.1:3000', 'x-engram-token': TOKEN }), TOKEN, []).ok, true);
  });

  test('rejects a missing or wrong token even from the same origin', () => {
    assert.equal(checkMutation(headers({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }), TOKEN, []).ok, false);
    assert.equal(checkMutation(headers({ host: '127.0.0.1:3000', 'x-engram-token': `${TOKEN}x` }), TOKEN, []).ok, false);
  });

  test('rejects a foreign origin even with the token, unless it is allowed', () => {
    const h = headers({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:7860', 'x-engram-token': TOKEN });
    assert.equal(checkMutation(h, TOKEN, []).ok, false);
    assert.equal(checkMutation(h, TOKEN, ['http://127.0.0.1:7860/']).ok, true);
    // Same host, other port is another origin.
    assert.equal(checkMutation(h, TOKEN, ['http://127.0.0.1:7861']).ok, false);
  });

  test('rejects an opaque "null" origin and a cross-site fetch without Origin', () => {
    assert.equal(checkMutation(headers({ host: 'h:1', origin: 'null', 'x-engram-token': TOKEN }), TOKEN, []).ok, false);
    assert.equal(checkMutation(headers({ host: 'h:1', 'sec-fetch-site': 'cross-site', 'x-engram-token': TOKEN }), TOKEN, []).ok, false);
  });

  test('an empty expected token never matches', () => {
    assert.equal(tokensEqual('', ''), false);
    assert.equal(tokensEqual(null, 'x'), false);
  });
});

describe('origins and hosts', () => {
  test('normalizeOrigin keeps scheme, host and port only', () => {
    assert.equal(normalizeOrigin('http://Example.com:80/path?q'), 'http://example.com');
    assert.equal(normalizeOrigin('https://a.b:8443/'), 'https://a.b:8443');
    assert.equal(normalizeOrigin('file:///etc/passwd'), null);
    assert.equal(normalizeOrigin('not a url'), null);
  });

  test('selfOrigin follows a proxy when it says so', () => {
    assert.equal(selfOrigin(headers({ host: '127.0.0.1:3000' })), 'http://127.0.0.1:3000');
    assert.equal(selfOrigin(headers({ host: 'x', 'x-forwarded-host': 'mem.local', 'x-forwarded-proto': 'https' })), 'https://mem.local');
  });

  test('a loopback console only answers loopback host names or allowed hosts', () => {
    assert.equal(hostAllowed('127.0.0.1:3000', '127.0.0.1', []), true);
    assert.equal(hostAllowed('localhost:3000', '127.0.0.1', []), true);
    assert.equal(hostAllowed('[::1]:3000', '127.0.0.1', []), true);
    assert.equal(hostAllowed('evil.example:3000', '127.0.0.1', []), false);
    assert.equal(hostAllowed(null, '127.0.0.1', []), false);
    assert.equal(hostAllowed('dsh.local:3000', '127.0.0.1', ['http://dsh.local:7860']), true);
    // Bound elsewhere on purpose: not our call to police host names.
    assert.equal(hostAllowed('evil.example', '0.0.0.0', []), true);
  });
});

describe('securityHeaders', () => {
  test('frame-ancestors lists self and exactly the allowed origins; no X-Frame-Options', () => {
    const h = securityHeaders(['http://127.0.0.1:7860/', 'javascript:alert(1)']);
    const csp = h['Content-Security-Policy']!;
    const ancestors = /frame-ancestors ([^;]+)/.exec(csp)![1]!.split(' ');
    assert.deepEqual(ancestors, ["'self'", 'http://127.0.0.1:7860']);
    assert.equal(h['X-Content-Type-Options'], 'nosniff');
    assert.equal(Object.keys(h).some((k) => k.toLowerCase() === 'x-frame-options'), false);
    assert.equal(csp.includes('unsafe-eval'), false);
  });
});
