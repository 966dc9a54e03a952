// The console frame takes the host's language and theme: read from the document attributes the real
// host keeps (0.1.1-rc.2: <html lang> from locale/src/client/index.ts:131; <html style="color-scheme">
// and <body data-ds-dark-theme> from ui-layout/src/client/theme-presenter.ts:39-42), put in the
// frame's URL, and sent as the message the console listens for (its own parser is used here, so the
// two halves cannot drift apart). The browser half is e2e/plugin-client.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APPEARANCE_REQUEST as CONSOLE_REQUEST, appearanceOf } from '../../console/src/client/host-appearance.ts';
import { appearanceMessage, isAppearanceRequest, readAppearance, watchAppearance, withAppearance, type DocumentLike } from '../src/client/appearance.ts';

function hostDoc(lang: string | null, scheme: string, dark: boolean) {
  const html = { attrs: new Map<string, string>(lang === null ? [] : [['lang', lang]]), style: { colorScheme: scheme } };
  const body = { attrs: new Map<string, string>(dark ? [['data-ds-dark-theme', '']] : []) };
  const el = (e: { attrs: Map<string, string> }) => ({ getAttribute: (n: string) => e.attrs.get(n) ?? null, hasAttribute: (n: string) => e.attrs.has(n) });
  const doc: DocumentLike = { documentElement: { ...el(html), style: html.style }, body: el(body) };
  return { doc, html, body };
}

test('the host document says its language and theme the way the real host writes them', () => {
  assert.deepEqual(readAppearance(hostDoc('zh-CN', 'light', false).doc), { lang: 'zh', theme: 'light' });
  assert.deepEqual(readAppearance(hostDoc('en', 'dark', true).doc), { lang: 'en', theme: 'dark' });
  // Before the theme presenter runs the boot script has set both; the body attribute alone is enough.
  assert.deepEqual(readAppearance(hostDoc('en', '', true).doc), { lang: 'en', theme: 'dark' });
  // A page that says nothing passes nothing: the console keeps its own choice.
  assert.deepEqual(readAppearance(hostDoc(null, '', false).doc), {});
  assert.deepEqual(readAppearance(hostDoc('fr', '', false).doc), {});
  assert.deepEqual(readAppearance(null), {});
});

test('the frame URL carries ?lang=&theme= for the direct console, the proxy path and the light view', () => {
  assert.equal(withAppearance('http://127.0.0.1:3000/', { lang: 'zh', theme: 'dark' }), 'http://127.0.0.1:3000/?lang=zh&theme=dark');
  assert.equal(withAppearance('/engram/console/', { lang: 'en' }), '/engram/console/?lang=en');
  assert.equal(withAppearance('/engram/view?x=1#top', { theme: 'light' }), '/engram/view?x=1&theme=light#top');
  assert.equal(withAppearance('/engram/view?lang=zh', { lang: 'en' }), '/engram/view?lang=en');
  assert.equal(withAppearance('/engram/view', {}), '/engram/view');
});

test('the message is the one the console applies', () => {
  assert.deepEqual(appearanceOf(appearanceMessage({ lang: 'en', theme: 'dark' })), { lang: 'en', theme: 'dark' });
  assert.deepEqual(appearanceOf(appearanceMessage({ theme: 'light' })), { theme: 'light' });
});

test('a switch of language or theme on the host is reported once; other attribute changes are not', () => {
  const { doc, html, body } = hostDoc('zh-CN', 'light', false);
  let fire = () => {};
  const watched: { target: unknown; filter: string[] }[] = [];
  class FakeObserver {
    constructor(callback: () => void) {
      fire = callback;
    }
    observe(target: unknown, options: { attributeFilter: string[] }) {
      watched.push({ target, filter: options.attributeFilter });
    }
    disconnect() {
      fire = () => {};
    }
  }
  const seen: unknown[] = [];
  const stop = watchAppearance(doc, (a) => seen.push(a), FakeObserver);
  assert.deepEqual(watched.map((w) => w.filter), [['lang', 'style'], ['data-ds-dark-theme']]);
  fire(); // a style change that is not the colour scheme
  assert.deepEqual(seen, []);
  html.attrs.set('lang', 'en');
  fire();
  html.style.colorScheme = 'dark';
  body.attrs.set('data-ds-dark-theme', '');
  fire();
  fire();
  assert.deepEqual(seen, [{ lang: 'en', theme: 'light' }, { lang: 'en', theme: 'dark' }]);
  stop();
  html.attrs.set('lang', 'zh-CN');
  fire();
  assert.equal(seen.length, 2, 'stopped');
});

test('the framed console asks for the appearance once it listens; only its own frame is answered', () => {
  const frameWindow = {};
  const request = { type: 'engram:appearance-request' };
  assert.equal(isAppearanceRequest(request, frameWindow, frameWindow), true);
  assert.equal(isAppearanceRequest(request, {}, frameWindow), false, 'another window (another frame, a popup) is not answered');
  assert.equal(isAppearanceRequest(request, frameWindow, null), false, 'no frame open: nobody to answer');
  assert.equal(isAppearanceRequest({ type: 'engram:appearance' }, frameWindow, frameWindow), false);
  assert.equal(isAppearanceRequest('engram:appearance-request', frameWindow, frameWindow), false);
  // The console's request is the plugin's constant: the two halves cannot drift apart.
  assert.equal(CONSOLE_REQUEST, request.type);
});
