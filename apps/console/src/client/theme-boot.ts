// Runs in <head> before paint so the first frame already has the right colours (server-safe module).
export const THEME_KEY = 'engram.theme';

export const themeBootScript = `(function(){try{var t=localStorage.getItem('${THEME_KEY}');if(t!=='light'&&t!=='dark'){t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.dataset.theme=t;if(localStorage.getItem('engram.lang')==='en')document.documentElement.lang='en'}catch(e){}})();`;
