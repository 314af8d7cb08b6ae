/**
 * The host name of an `Origin` header as the allowed-hosts list spells it (lower case, an IPv6
 * address in brackets), or null when there is no usable origin (absent, `null`, not http(s)).
 */
export function originHostName(origin: string | undefined): string | null {
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase();
  // URL.hostname drops an IPv6 address's brackets; the allowed list keeps them.
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
