export function getCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  const hit = document.cookie.split('; ').find((c) => c.startsWith(prefix));
  return hit === undefined ? undefined : decodeURIComponent(hit.slice(prefix.length));
}

export function setCookie(name: string, value: string, days: number, path = '/') {
  const expires = new Date(Date.now() + days * 864e5).toUTCString();
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires}; path=${path}; SameSite=Lax${secure}`;
}
