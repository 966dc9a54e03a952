// A user name or password written into an endpoint URL (https://me:key@host/v1). Node's fetch refuses
// such a URL, and its error repeats the URL, password included, so it would reach the judge's status
// and the console; Settings would show it too. The key belongs in the section's apiKey, sent only as
// the Authorization header to the address it was saved for.

/** True when `url` parses and carries a user name or a password. */
export function hasUrlCredentials(url: string): boolean {
  try {
    const u = new URL(url.trim());
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

/** `url` as it may be shown: a user name or password replaced by •••. */
export function withoutUrlCredentials(url: string): string {
  if (!hasUrlCredentials(url)) return url;
  const u = new URL(url.trim());
  u.username = '';
  u.password = '';
  return u.href.replace('://', '://•••@');
}

/** Why a `section`.baseUrl with credentials is not used (no URL in it), in both languages. */
export const urlCredentialsRefusal = (section: 'embedding' | 'judge'): string =>
  `${section}.baseUrl 里带有用户名或密码，这样的地址不会使用（请求会被拒绝，地址还会显示出来）；请去掉它们，把密钥填在 ${section}.apiKey。 / ${section}.baseUrl carries a user name or password; such an address is not used (the request would be refused and the address shown) — remove them and put the key in ${section}.apiKey.`;
