import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TRPCError } from '@trpc/server';
import { EngramError } from '@engram/engine';
import { EngineErrorCause, engineUnavailable, toTRPCError, trpcCodeFor } from '../src/server/errors.ts';

test('engine error codes map to the tRPC code a client can act on', () => {
  assert.equal(trpcCodeFor('not-found'), 'NOT_FOUND');
  assert.equal(trpcCodeFor('conflict'), 'CONFLICT');
  assert.equal(trpcCodeFor('already-archived'), 'CONFLICT');
  assert.equal(trpcCodeFor('read-only'), 'PRECONDITION_FAILED');
  assert.equal(trpcCodeFor('config-invalid'), 'BAD_REQUEST');
  assert.equal(trpcCodeFor('bad-input'), 'BAD_REQUEST');
  assert.equal(trpcCodeFor('locked'), 'PRECONDITION_FAILED');
  assert.equal(trpcCodeFor('manual-summary'), 'PRECONDITION_FAILED');
  assert.equal(trpcCodeFor('disabled'), 'PRECONDITION_FAILED');
  assert.equal(trpcCodeFor('fragment'), 'BAD_REQUEST');
  assert.equal(trpcCodeFor('ambiguous'), 'BAD_REQUEST');
  // The diary folder gone under the engine: the memory is there, its folder must come back first.
  assert.equal(trpcCodeFor('diary-missing'), 'PRECONDITION_FAILED');
});

test('an engine error keeps its message and code, also when wrapped by tRPC', () => {
  const engine = new EngramError('conflict', 'changed on disk');
  for (const thrown of [engine, new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: engine })]) {
    const mapped = toTRPCError(thrown, () => assert.fail('engine errors are not logged as crashes'));
    assert.equal(mapped.code, 'CONFLICT');
    assert.equal(mapped.message, 'changed on disk');
    assert.ok(mapped.cause instanceof EngineErrorCause);
    assert.equal((mapped.cause as EngineErrorCause).engramCode, 'conflict');
  }
});

test('an unexpected error becomes a generic INTERNAL_SERVER_ERROR and is logged, not echoed', () => {
  const logged: unknown[] = [];
  const secret = new Error('ENOENT /home/someone/.engram/secret-path');
  const mapped = toTRPCError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: secret }), (e) => logged.push(e));
  assert.equal(mapped.code, 'INTERNAL_SERVER_ERROR');
  assert.equal(mapped.message.includes('secret-path'), false);
  assert.deepEqual(logged, [secret]);
});

test('typed tRPC errors (validation, forbidden) pass through unchanged', () => {
  const forbidden = new TRPCError({ code: 'FORBIDDEN', message: 'no token' });
  assert.equal(toTRPCError(forbidden), forbidden);
});

test('an engine that cannot open answers PRECONDITION_FAILED with its reason, or a generic 500', () => {
  const missing = engineUnavailable(new EngramError('diary-dir-missing', 'diary directory does not exist: /x'), () => assert.fail('not a crash'));
  assert.equal(missing.code, 'PRECONDITION_FAILED');
  assert.match(missing.message, /diary directory/);
  const logged: unknown[] = [];
  const crash = engineUnavailable(new Error('SQLITE_CANTOPEN /secret/path'), (e) => logged.push(e));
  assert.equal(crash.code, 'INTERNAL_SERVER_ERROR');
  assert.equal(crash.message.includes('/secret/path'), false);
  assert.equal(logged.length, 1);
});

test('the remote database server down is SERVICE_UNAVAILABLE with a Chinese-first reason, never a 500', () => {
  assert.equal(trpcCodeFor('database-unreachable'), 'SERVICE_UNAVAILABLE');
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' });
  const raw = new TypeError('fetch failed', { cause: refused });
  const wrapped = Object.assign(new Error('Failed query: select 1'), { cause: raw });
  for (const thrown of [raw, wrapped, new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: wrapped })]) {
    const mapped = toTRPCError(thrown, () => assert.fail('an outage is not logged as a crash'));
    assert.equal(mapped.code, 'SERVICE_UNAVAILABLE');
    assert.match(mapped.message, /^无法连接数据库服务器/);
    assert.equal((mapped.cause as EngineErrorCause).engramCode, 'database-unreachable');
  }
  const engine = new EngramError('database-unreachable', '文字已保存，索引稍后补上：a.txt …');
  const mapped = toTRPCError(engine, () => assert.fail('not a crash'));
  assert.equal(mapped.code, 'SERVICE_UNAVAILABLE');
  assert.match(mapped.message, /^文字已保存，索引稍后补上/);
});
