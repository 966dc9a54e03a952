// Runs in <head> before paint so the first frame already has the right colours (server-safe module).
// Order: the host's `?theme=` / `?lang=` (the DSH sidebar passes its own), then the user's stored
// pick, then the OS. Storage may be refused (cross-site frame): everything sits in try/catch.
export const THEME_KEY = 'engram.theme';
export const LANG_KEY = 'engram.lang';

export const themeBootScript = `(function(){var q;try{q=new URL(location.href).searchParams}catch(e){q=null}
var t=q&&q.get('theme'),l=q&&q.get('lang');
if(t!=='light'&&t!=='dark'){try{t=localStorage.getItem('${THEME_KEY}')}catch(e){t=null}}
if(t!=='light'&&t!=='dark'){try{t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}catch(e){t='light'}}
document.documentElement.dataset.theme=t;
if(l!=='en'&&l!=='zh'){try{l=localStorage.getItem('${LANG_KEY}')}catch(e){l=null}}
if(l==='en')document.documentElement.lang='en'})();`;
