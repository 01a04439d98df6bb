import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';
import type { Environment } from '../db/platform-tables.js';
import { AppError } from '../errors.js';

export interface DestinationPolicy {
  /** COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS: local and test deployments deliver to loopback and private networks. */
  allowPrivate: boolean;
}

/** Only ordinary public unicast addresses; loopback, private, link-local (cloud metadata), CGNAT and reserved are not. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

function refuse(message: string): never {
  throw new AppError('invalid_webhook_url', message);
}

/**
 * Checks a destination when it is registered: an absolute http(s) URL without credentials, https for live
 * tenants, and every address it resolves to public (unless private destinations are allowed).
 */
export async function assertDeliverableUrl(
  raw: string,
  environment: Environment,
  policy: DestinationPolicy,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse('The webhook URL is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('The webhook URL must use https');
  if (url.protocol === 'http:' && environment === 'live' && !policy.allowPrivate) {
    refuse('Live tenants must use an https webhook URL');
  }
  if (url.username || url.password) refuse('The webhook URL must not carry credentials');
  if (policy.allowPrivate) return url;

  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      refuse(`The webhook host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    refuse('The webhook URL points at a loopback, private, link-local or reserved address');
  }
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * The HTTP agent for deliveries. Its DNS look-up refuses non-public addresses at connect time, so a host that
 * resolved to a public address at registration cannot be rebound to an internal one later.
 */
export function createDeliveryAgent(policy: DestinationPolicy): Agent {
  if (policy.allowPrivate) return new Agent({ connect: { timeout: 10_000 } });
  const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = addresses.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves only to non-public addresses`), {
          code: 'EADDRNOTALLOWED',
        });
        return callback(refused, []);
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0]!;
      callback(null, first.address, first.family);
    });
  };
  return new Agent({ connect: { timeout: 10_000, lookup: lookup as never } });
}

/** Delivery-time check of an IP-literal host, which never passes through the agent's DNS look-up. */
export function isDeliverableHost(url: URL, policy: DestinationPolicy): boolean {
  if (policy.allowPrivate) return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? isPublicAddress(host) : true;
}
