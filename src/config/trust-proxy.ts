import ipaddr from 'ipaddr.js';

/**
 * TRUST_PROXY: unset or `0` trusts no proxy; a whole number is how many proxies in front are trusted; otherwise a
 * comma-separated list of the proxies' addresses or CIDR ranges. Never "any": a client could then pick its own
 * address in X-Forwarded-For and slip every per-address limit.
 */
export function trustedProxies(raw: string | undefined, problems: string[]): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => {
    const [address, bits, ...rest] = entry.split('/');
    if (rest.length > 0 || !address || !ipaddr.isValid(address)) return true;
    if (bits === undefined) return false;
    const max = ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128;
    return !/^\d+$/.test(bits) || Number(bits) > max;
  });
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY must be a number of proxies or a comma-separated list of addresses and CIDR ranges (not: ${bad.join(', ')})`,
    );
    return false;
  }
  return entries;
}
