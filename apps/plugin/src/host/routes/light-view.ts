// The plugin's own light view of the memories, for when the full console is not running — the usual
// case for someone who installed only the bundle (it has no console to start). Served by the plugin
// on the host, same origin as the DSH page, with no dependency beyond the engine it already holds:
//   GET /engram/view                 the page (Chinese first; fits a 300 px sidebar)
//   GET /engram/view/api/list?q=     recent memories, or what the engine's recall finds for q
//   GET /engram/view/api/read?id=    one memory's text
// Reads only, and memory text is personal: every route is Host-checked and same-site only, like
// the log route. The page carries no token; it asks for client-config only to start the console.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkHost, checkSameSite, headerBag, type Engine, type GuardPolicy, type MemorySummary } from '@engram/engine';
import type { RouteDefinition } from '../core/host-types.ts';

export const VIEW_PATH = '/engram/view';

/**
 * Where a page navigation to the dead console lands: the light view, with the host's `lang` and
 * `theme` from the frame's URL kept (only the values the console knows).
 */
export function viewRedirect(requestUrl: string | undefined): string {
  const asked = new URL(requestUrl ?? '/', 'http://h').searchParams;
  const out = new URLSearchParams({ from: 'console' });
  const lang = asked.get('lang');
  const theme = asked.get('theme');
  if (lang === 'zh' || lang === 'en') out.set('lang', lang);
  if (theme === 'light' || theme === 'dark') out.set('theme', theme);
  return `${VIEW_PATH}?${out.toString()}`;
}
const API_PATH = `${VIEW_PATH}/api`;
const PAGE_SIZE = 50;

export interface LightViewDeps {
  engine(): Engine | null;
  /** Why the engine is not open, when it is not. */
  engineError(): string | null;
  policy(): GuardPolicy;
  /** The plugin's log file, named in errors so a person knows where to look. */
  logFile(): string | null;
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
  res.end(body);
}

const json = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

function guarded(req: IncomingMessage, res: ServerResponse, policy: GuardPolicy): boolean {
  const headers = headerBag(req.headers);
  for (const verdict of [checkHost(headers, policy), checkSameSite(headers, policy)]) {
    if (!verdict.ok) {
      json(res, verdict.status, { error: verdict.reason });
      return false;
    }
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    json(res, 405, { error: '只支持 GET / GET only' });
    return false;
  }
  return true;
}

export interface ViewItem {
  docId: string;
  title: string;
  date: string;
  category: string;
  tags: string[];
  summary: string;
  pinned: boolean;
}

async function listFor(engine: Engine, q: string, offset: number): Promise<{ mode: 'recent' | 'recall'; items: ViewItem[]; total: number; note: string | null }> {
  const view = (m: MemorySummary): ViewItem => ({ docId: m.docId, title: m.title, date: m.date, category: m.category, tags: m.tags, summary: m.summary, pinned: m.pinned });
  if (q === '') {
    // Pinned first, then the newest; only the page is summarised (every memory was, per request).
    const page = await engine.listPage({ order: 'recent', offset, limit: PAGE_SIZE });
    return { mode: 'recent', items: page.items.map(view), total: page.total, note: null };
  }
  const result = await engine.recall(q, { k: 20, typedAs: 'search' });
  // Only the hits' rows: listing every memory to find them cost a 50,000-note store seconds a search.
  const byId = await engine.summariesOf(result.hits.map((h) => h.docId));
  const items = result.hits.map((h) => byId.get(h.docId)).filter((m): m is MemorySummary => m !== undefined).map(view);
  const note = items.length === 0 ? '召回为空:相关度闸门认为这些记忆都不够相关(完整控制台的「召回调试」会说明原因)。' : null;
  return { mode: 'recall', items, total: items.length, note };
}

export function createLightViewRoutes(deps: LightViewDeps): RouteDefinition[] {
  const page: RouteDefinition = {
    kind: 'exact',
    path: VIEW_PATH,
    handler: (req, res) => {
      if (!guarded(req, res, deps.policy())) return;
      const nonce = randomBytes(16).toString('base64');
      send(res, 200, 'text/html; charset=utf-8', renderViewPage(nonce), {
        'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`,
        'referrer-policy': 'same-origin',
      });
    },
  };
  const api: RouteDefinition = {
    kind: 'prefix',
    path: API_PATH,
    handler: async (req, res) => {
      if (!guarded(req, res, deps.policy())) return;
      const engine = deps.engine();
      const log = deps.logFile();
      if (!engine) {
        const failed = deps.engineError();
        // Opening goes on in the background after a host start: the view asks again.
        if (failed === null) return json(res, 503, { error: '记忆引擎正在打开，请几秒后再试', opening: true });
        return json(res, 503, { error: `记忆引擎没有打开:${failed}${log ? `。详见日志 ${log}` : ''}` });
      }
      const url = new URL(req.url ?? '/', 'http://view');
      try {
        if (url.pathname === `${API_PATH}/list`) {
          const offset = Math.max(0, Math.min(1_000_000, Number.parseInt(url.searchParams.get('offset') ?? '0', 10) || 0));
          const q = (url.searchParams.get('q') ?? '').slice(0, 500).trim();
          return json(res, 200, await listFor(engine, q, offset));
        }
        if (url.pathname === `${API_PATH}/read`) {
          const id = url.searchParams.get('id') ?? '';
          const detail = id === '' ? null : await engine.read(id);
          if (!detail) return json(res, 404, { error: '没有这条记忆(可能已被移动或归档)' });
          return json(res, 200, { docId: detail.docId, title: detail.title, date: detail.date, tags: detail.tags, category: detail.category, archived: detail.archived, raw: detail.raw });
        }
        return json(res, 404, { error: '没有这个接口' });
      } catch (error) {
        return json(res, 500, { error: `读取记忆失败:${error instanceof Error ? error.message : String(error)}${log ? `。详见日志 ${log}` : ''}` });
      }
    },
  };
  return [page, api];
}

/** The page: markup, style and script in one answer (nonce-bound under a strict CSP). */
export function renderViewPage(nonce: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Engram 记忆</title>
<style nonce="${nonce}">
:root{color-scheme:light dark;--fg:#1f2328;--muted:#656d76;--bg:#fff;--line:#d0d7de;--soft:#f6f8fa;--accent:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#30363d;--soft:#161b22;--accent:#4493f8}}
:root[data-theme=light]{color-scheme:light;--fg:#1f2328;--muted:#656d76;--bg:#fff;--line:#d0d7de;--soft:#f6f8fa;--accent:#0969da}
:root[data-theme=dark]{color-scheme:dark;--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#30363d;--soft:#161b22;--accent:#4493f8}
*{box-sizing:border-box}body{margin:0;font:13px/1.5 system-ui,"PingFang SC","Microsoft YaHei","WenQuanYi Micro Hei",sans-serif;color:var(--fg);background:var(--bg)}
header{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);padding:8px}
.row{display:flex;gap:6px;align-items:center}input{flex:1;min-width:0;padding:5px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);font:inherit}
button{padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);font:inherit;cursor:pointer}
#status,#note{color:var(--muted);font-size:12px;margin-top:4px}ul{list-style:none;margin:0;padding:0}
li{border-bottom:1px solid var(--line)}li button{display:block;width:100%;text-align:left;border:0;border-radius:0;background:none;padding:6px 8px}
li button:hover,li button:focus{background:var(--soft);outline:none}.t{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.m{color:var(--muted);font-size:12px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}pre{white-space:pre-wrap;word-break:break-word;margin:0;padding:8px;font:12px/1.6 ui-monospace,monospace}
.pad{padding:6px 8px}.banner{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:6px 8px;margin-top:6px;font-size:12px}
</style></head><body>
<header>
<div class="row"><input id="q" type="search" placeholder="搜索记忆(按 / 聚焦)" aria-label="搜索记忆"><button id="go" type="button">搜索</button></div>
<div class="banner" id="banner">这是插件内置的简易视图:完整控制台没有在运行。<span id="start-wrap" hidden> <button id="start" type="button">启动完整控制台</button></span></div>
<div id="status" role="status">正在读取记忆…</div>
</header>
<main><ul id="list" aria-label="记忆列表"></ul><div id="note"></div><div id="detail" hidden><div class="row pad"><button id="back" type="button">← 返回列表</button></div><pre id="text"></pre></div></main>
<script nonce="${nonce}">
(function(){
var base=location.pathname.replace(/\\/+$/,'');var api=base+'/api';
var $=function(id){return document.getElementById(id)};
/* The host's theme: ?theme= when the frame opens, then {type:'engram:appearance',theme} from the parent (the console's protocol). */
function theme(t){if(t==='light'||t==='dark')document.documentElement.setAttribute('data-theme',t)}
var asked=new URLSearchParams(location.search);theme(asked.get('theme'));
addEventListener('message',function(e){if(e.source!==parent||parent===window||!e.data||e.data.type!=='engram:appearance')return;theme(e.data.theme);
if(e.data.lang==='zh'||e.data.lang==='en')asked.set('lang',e.data.lang);if(e.data.theme==='light'||e.data.theme==='dark')asked.set('theme',e.data.theme)});
if(parent!==window)try{parent.postMessage({type:'engram:appearance-request'},'*')}catch(e){}
function carried(){var o=new URLSearchParams();['lang','theme'].forEach(function(k){if(asked.get(k))o.set(k,asked.get(k))});var q=o.toString();return q?'?'+q:''}
function get(path){return fetch(path,{credentials:'same-origin'}).then(function(r){return r.json().then(function(b){if(!r.ok){var e=new Error(b&&b.error||('HTTP '+r.status));e.opening=!!(b&&b.opening);throw e}return b})})}
function item(m){var li=document.createElement('li');var b=document.createElement('button');b.type='button';
var t=document.createElement('div');t.className='t';t.textContent=(m.pinned?'📌 ':'')+m.title;
var s=document.createElement('div');s.className='m';s.textContent=[m.date,m.category,(m.tags||[]).slice(0,3).join('、'),m.summary].filter(Boolean).join(' · ');
b.appendChild(t);b.appendChild(s);b.addEventListener('click',function(){open(m.docId)});li.appendChild(b);return li}
function load(q){$('status').textContent=q?'正在召回…':'正在读取记忆…';
get(api+'/list?q='+encodeURIComponent(q||'')).then(function(r){var ul=$('list');ul.textContent='';r.items.forEach(function(m){ul.appendChild(item(m))});
$('status').textContent=r.mode==='recall'?('召回 '+r.items.length+' 条'):('共 '+r.total+' 条记忆'+(r.total>r.items.length?',显示最近 '+r.items.length+' 条':''));
$('note').textContent=r.note||'';$('detail').hidden=true;ul.hidden=false}).catch(function(e){if(e.opening){$('status').textContent=e.message;setTimeout(function(){load(q)},1000);return}$('status').textContent='读取失败:'+e.message})}
function open(id){get(api+'/read?id='+encodeURIComponent(id)).then(function(d){$('text').textContent=d.raw;$('list').hidden=true;$('detail').hidden=false;$('back').focus()}).catch(function(e){$('status').textContent='打开失败:'+e.message})}
$('go').addEventListener('click',function(){load($('q').value.trim())});
$('q').addEventListener('keydown',function(e){if(e.key==='Enter')load($('q').value.trim())});
$('back').addEventListener('click',function(){$('detail').hidden=true;$('list').hidden=false});
document.addEventListener('keydown',function(e){if(e.key==='/'&&document.activeElement!==$('q')){e.preventDefault();$('q').focus()}else if(e.key==='Escape'&&!$('detail').hidden){$('detail').hidden=true;$('list').hidden=false}});
get('/engram/client-config').then(function(c){if(c.startable){$('start-wrap').hidden=false;$('start').addEventListener('click',function(){$('status').textContent='正在启动完整控制台…';
var h={};h[c.tokenHeader]=c.token;fetch(c.startPath,{method:'POST',credentials:'same-origin',headers:h}).then(function(r){return r.json()}).then(function(b){
if(!b.ok){$('status').textContent='无法启动:'+(b.message||'原因未知');return}$('status').textContent='完整控制台启动中,稍候会自动切换…';
var tries=0;var poll=setInterval(function(){get('/engram/client-config').then(function(c2){if(c2.reachable){clearInterval(poll);location.href=(location.protocol==='https:'?c2.proxyPath:c2.consoleUrl.replace(/\\/+$/,'')+'/')+carried()}else if(++tries>60){clearInterval(poll);$('status').textContent='完整控制台没有按时启动,详见插件日志'}})},1000)})})}}).catch(function(){});
load('');
})();
</script></body></html>`;
}
