import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, parseDuration, retryAfterMs } from '../../src/semantic/http-retry.ts';
import { redact } from '../../src/semantic/embedding-fault.ts';

const headers = (h: Record<string, string>) => new Headers(h);

describe('rate-limit headers', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('Retry-After in seconds and as an HTTP date', () => {
    assert.equal(retryAfterMs(headers({ 'retry-after': '3' }), now), 3000);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now), 5000);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now), 0);
  });
  it('x-ratelimit-reset as seconds, durations and epoch times', () => {
    assert.equal(retryAfterMs(headers({ 'x-ratelimit-reset': '2' }), now), 2000);
    assert.equal(retryAfterMs(headers({ 'x-ratelimit-reset': '500ms' }), now), 500);
    assert.equal(retryAfterMs(headers({ 'x-ratelimit-reset-requests': '1m30s' }), now), 90_000);
    assert.equal(retryAfterMs(headers({ 'x-ratelimit-reset': String(now / 1000 + 7) }), now), 7000);
  });
  it('takes the longest stated wait, and null when nothing usable', () => {
    assert.equal(retryAfterMs(headers({ 'retry-after': '1', 'x-ratelimit-reset-tokens': '4s' }), now), 4000);
    assert.equal(retryAfterMs(headers({}), now), null);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'soon' }), now), null);
  });
  it('parses durations strictly', () => {
    assert.equal(parseDuration('1.5s'), 1500);
    assert.equal(parseDuration('6m0s'), 360_000);
    assert.equal(parseDuration('2h'), 7_200_000);
    assert.equal(parseDuration('abc'), null);
    assert.equal(parseDuration('5s later'), null);
  });
});

describe('backoff', () => {
  it('grows exponentially within ±50 % jitter and stays under the cap', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const exp = Math.min(30_000, 500 * 2 ** attempt);
      assert.equal(backoffMs(attempt, { random: () => 0 }), Math.round(exp * 0.5));
      assert.ok(backoffMs(attempt, { random: () => 0.999 }) <= Math.round(exp * 1.5));
    }
    assert.ok(backoffMs(3, { random: () => 0.5 }) > backoffMs(1, { random: () => 0.5 }));
  });
});

describe('redaction', () => {
  it('removes the key and any bearer token from a message', () => {
    const msg = redact('Incorrect API key provided: Bearer sk-live-123456 (sk-live-123456)', ['sk-live-123456']);
    assert.ok(!msg.includes('sk-live-123456'));
    assert.ok(msg.includes('***'));
    assert.equal(redact('Authorization: Bearer abc.def', []), 'Authorization: Bearer ***');
  });
});
