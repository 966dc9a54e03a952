// The one request guard (console and plugin routes). Red before: `127.evil.example` was a loopback
// host, and a forged X-Forwarded-Host made a foreign Origin count as the console's own.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkHost,
  checkMutation,
  browserSessionValue,
  checkSameSite,
  cookieValue,
  forwardedHeaders,
  sessionCookie,
  headerBag,
  isLoopbackHost,
  normalizeOrigin,
  securityHeaders,
  selfOrigin,
  tokensEqual,
  type GuardPolicy,
} from '../../src/security/request-guard.ts';

const TOKEN = 'a'.repeat(43);
const h = (x: Record<string, string>) => new Headers(x);
const base: GuardPolicy = { token: TOKEN, allowedOrigins: [], bindHost: '127.0.0.1' };

describe('host names (DNS rebinding)', () => {
  test('exact loopback names only, any case, optional port', () => {
    for (const ok of ['127.0.0.1', '127.0.0.1:3000', 'localhost', 'LOCALHOST:80', 'Localhost.:3000', '[::1]', '[::1]:3000']) {
      assert.equal(isLoopbackHost(ok), true, ok);
      assert.equal(checkHost(h({ host: ok }), base).ok, true, ok);
    }
    for (const bad of ['127.evil.example', '127.evil.example:3000', '127.0.0.1.evil.example', 'localhost.evil.example', 'evil.example', 'localhost@evil', '127.0.0.1 evil', '', '[::1].evil', 'xn--localhost']) {
      assert.equal(isLoopbackHost(bad), false, bad);
      const v = checkHost(h({ host: bad }), base);
      assert.equal(v.ok, false, bad);
      assert.equal(!v.ok && v.status, 421);
    }
    assert.equal(checkHost(h({}), base).ok, false);
  });

  test('configured hosts, allowed origins and a concrete bind host are answered; a wildcard bind is not a name', () => {
    assert.equal(checkHost(h({ host: 'mem.lan:3000' }), { ...base, allowedHosts: ['Mem.Lan'] }).ok, true);
    assert.equal(checkHost(h({ host: 'dsh.local:3000' }), { ...base, allowedOrigins: ['http://dsh.local:7860'] }).ok, true);
    assert.equal(checkHost(h({ host: '192.168.1.5:3000' }), { ...base, bindHost: '192.168.1.5' }).ok, true);
    assert.equal(checkHost(h({ host: '0.0.0.0:3000' }), { ...base, bindHost: '0.0.0.0' }).ok, false);
    // Bound everywhere is no longer "anything goes": the rebinding page still names its own host.
    assert.equal(checkHost(h({ host: 'evil.example' }), { ...base, bindHost: '0.0.0.0' }).ok, false);
  });

  test('X-Forwarded-Host is ignored unless the proxy is trusted, and a trusted one must name an accepted host', () => {
    const forged = h({ host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    assert.equal(selfOrigin(forged, base), 'http://127.0.0.1:3000');
    assert.equal(checkHost(forged, base).ok, true); // the forged header is simply not read
    assert.equal(checkHost(forged, { ...base, trustedProxy: true }).ok, false);
    const viaPlugin = h({ host: '127.0.0.1:3000', ...forwardedHeaders(TOKEN, 'localhost:7860') });
    assert.equal(selfOrigin(viaPlugin, base), 'http://localhost:7860');
    assert.equal(checkHost(viaPlugin, base).ok, true);
    const pluginForwardingEvil = h({ host: '127.0.0.1:3000', ...forwardedHeaders(TOKEN, 'evil.example:7860') });
    assert.equal(checkHost(pluginForwardingEvil, base).ok, false);
    const wrongProxyToken = h({ host: '127.0.0.1:3000', ...forwardedHeaders('b'.repeat(43), 'localhost:7860') });
    assert.equal(selfOrigin(wrongProxyToken, base), 'http://127.0.0.1:3000');
  });
});

describe('mutations', () => {
  test('same origin with the token passes; a script without Origin needs only the token', () => {
    assert.deepEqual(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'x-engram-token': TOKEN }), base), { ok: true });
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', 'x-engram-token': TOKEN }), base).ok, true);
  });

  test('missing or wrong token, foreign origin, opaque origin, cross-site without origin are refused', () => {
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }), base).ok, false);
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', 'x-engram-token': `${TOKEN}x` }), base).ok, false);
    const foreign = h({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:7860', 'x-engram-token': TOKEN });
    assert.equal(checkMutation(foreign, base).ok, false);
    assert.equal(checkMutation(foreign, { ...base, allowedOrigins: ['http://127.0.0.1:7860/'] }).ok, true);
    assert.equal(checkMutation(foreign, { ...base, allowedOrigins: ['http://127.0.0.1:7861'] }).ok, false);
    assert.equal(checkMutation(h({ host: 'localhost', origin: 'null', 'x-engram-token': TOKEN }), base).ok, false);
    assert.equal(checkMutation(h({ host: 'localhost', 'sec-fetch-site': 'cross-site', 'x-engram-token': TOKEN }), base).ok, false);
    assert.equal(checkMutation(h({ host: '127.0.0.1', 'x-engram-token': TOKEN }), { ...base, token: '' }).ok, false);
  });

  test('a rebinding page (its own host in Host and Origin) is refused even with the token', () => {
    for (const host of ['127.evil.example:3000', 'evil.example:3000']) {
      const v = checkMutation(h({ host, origin: `http://${host}`, 'x-engram-token': TOKEN }), base);
      assert.equal(v.ok, false, host);
    }
    // Forged forwarded host naming the attacker: the attacker's Origin is still foreign.
    const forged = h({ host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example', origin: 'http://evil.example', 'x-engram-token': TOKEN });
    assert.equal(checkMutation(forged, base).ok, false);
  });

  test('through the plugin proxy the page origin is the host’s, and writes from it pass', () => {
    const req = h({ host: '127.0.0.1:3000', origin: 'http://localhost:7860', 'x-engram-token': TOKEN, ...forwardedHeaders(TOKEN, 'localhost:7860') });
    assert.equal(checkMutation(req, base).ok, true);
    assert.equal(checkSameSite(req, base).ok, true);
  });

  test('the browser session cookie authorises same-origin writes, never foreign ones, and is not the token', () => {
    const cookie = `other=1; engram_session=${browserSessionValue(TOKEN)}`;
    assert.notEqual(browserSessionValue(TOKEN), TOKEN);
    assert.doesNotMatch(sessionCookie(TOKEN), new RegExp(TOKEN));
    assert.match(sessionCookie(TOKEN), /HttpOnly/);
    assert.match(sessionCookie(TOKEN), /SameSite=Strict/);
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', cookie }), base).ok, true);
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://evil.example', cookie }), base).ok, false);
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', cookie: `engram_session=${browserSessionValue('b'.repeat(43))}` }), base).ok, false);
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', cookie: `engram_session=${TOKEN}` }), base).ok, false, 'the raw token is not a cookie');
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', cookie }), { ...base, token: '' }).ok, false);
    assert.equal(cookieValue('a=1; b = 2 ;c=3', 'b'), '2');
    assert.equal(cookieValue(null, 'b'), null);
  });

  test('a session cookie tossed in by a page on another port does not shadow the real one', () => {
    // Cookies are not kept apart by port: a page on 127.0.0.1:3996 can set engram_session with a
    // longer path, which the browser then sends first. The console's writes must still go through.
    const real = `engram_session=${browserSessionValue(TOKEN)}`;
    const tossed = { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', cookie: `engram_session=tossed; ${real}` };
    assert.equal(checkMutation(h(tossed), base).ok, true);
    assert.equal(checkMutation(h({ ...tossed, cookie: 'engram_session=tossed; engram_session=also-wrong' }), base).ok, false);
  });

  test('loopback names are one origin per port, as for Host', () => {
    for (const [host, origin] of [['127.0.0.1:3000', 'http://localhost:3000'], ['localhost:3000', 'http://127.0.0.1:3000'], ['localhost:3000', 'http://[::1]:3000']]) {
      assert.equal(checkMutation(h({ host: host!, origin: origin!, 'x-engram-token': TOKEN }), base).ok, true, `${host} ${origin}`);
    }
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://localhost:3001', 'x-engram-token': TOKEN }), base).ok, false, 'another port is another origin');
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'http://localhost:7860', 'x-engram-token': TOKEN }), { ...base, allowedOrigins: ['http://127.0.0.1:7860'] }).ok, true);
    assert.equal(checkMutation(h({ host: '127.0.0.1:3000', origin: 'https://localhost:3000', 'x-engram-token': TOKEN }), base).ok, false, 'another scheme is another origin');
  });

  test('a refusal says what was refused in fixed words, never the Host or Origin the caller sent', () => {
    const refusals = (name: string) =>
      [
        checkHost(h({ host: `${name}:3000` }), base),
        checkHost(h({ host: '127.0.0.1:3000', 'x-forwarded-host': name }), { ...base, trustedProxy: true }),
        checkMutation(h({ host: '127.0.0.1:3000', origin: `http://${name}`, 'x-engram-token': TOKEN }), base),
        checkMutation(h({ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site', 'x-engram-token': TOKEN }), base),
        checkMutation(h({ host: '127.0.0.1:3000', 'x-engram-token': `${name}${TOKEN}` }), base),
      ].map((v) => (v.ok ? '' : v.reason));
    const first = refusals('rebind-7f3a.example');
    for (const reason of first) {
      assert.ok(reason !== '' && !reason.includes('rebind-7f3a'), reason);
      assert.doesNotMatch(reason, new RegExp(TOKEN));
    }
    assert.deepEqual(refusals('other.example'), first, 'the words depend on what the caller sent');
  });

  test('node header objects work through headerBag', () => {
    const bag = headerBag({ host: 'localhost:1', origin: 'http://localhost:1', 'x-engram-token': [TOKEN, 'x'] });
    assert.equal(checkMutation(bag, base).ok, true);
  });

  test('tokensEqual never matches an empty expected token', () => {
    assert.equal(tokensEqual('', ''), false);
    assert.equal(tokensEqual(null, 'x'), false);
    assert.equal(tokensEqual(TOKEN, TOKEN), true);
  });
});

describe('origins and headers', () => {
  test('normalizeOrigin keeps scheme, host and port only', () => {
    assert.equal(normalizeOrigin('http://Example.com:80/path?q'), 'http://example.com');
    assert.equal(normalizeOrigin('https://a.b:8443/'), 'https://a.b:8443');
    assert.equal(normalizeOrigin('file:///etc/passwd'), null);
    assert.equal(normalizeOrigin('not a url'), null);
  });

  test('frame-ancestors lists self and exactly the allowed origins; no X-Frame-Options', () => {
    const sh = securityHeaders(['http://127.0.0.1:7860/', 'javascript:alert(1)']);
    const csp = sh['Content-Security-Policy']!;
    assert.deepEqual(/frame-ancestors ([^;]+)/.exec(csp)![1]!.split(' '), ["'self'", 'http://127.0.0.1:7860']);
    assert.equal(Object.keys(sh).some((k) => k.toLowerCase() === 'x-frame-options'), false);
    assert.equal(csp.includes('unsafe-eval'), false);
  });
});
