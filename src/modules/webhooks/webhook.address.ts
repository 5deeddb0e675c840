import dns from 'node:dns';
import net from 'node:net';

/**
 * Where a webhook may be sent (SSRF): `https:` to public addresses; `http:` and loopback or
 * private addresses only when CAL_WEBHOOKS_ALLOW_PRIVATE is on. Checked when a subscription is
 * saved and again at every delivery on the address the name resolves to then (a name may be
 * pointed elsewhere later), inside the connection's own lookup, so the address checked is the one
 * connected to.
 */

const PRIVATE = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a subscription URL is refused, or null. */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not a URL.';
  }
  if (raw.length > 2000) return 'url is longer than 2000 characters.';
  if (url.username !== '' || url.password !== '') return 'url must not hold credentials.';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) return allowPrivate ? 'url must be http: or https:.' : 'url must be https:.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) !== 0 && isPrivateAddress(host) && !allowPrivate) return 'url must not point to a loopback or private address.';
  if (/^localhost$/i.test(host) && !allowPrivate) return 'url must not point to a loopback or private address.';
  return null;
}

/** Why an address resolved for a delivery may not be connected to, or null. */
export function addressProblem(address: string, allowPrivate: boolean): string | null {
  return isPrivateAddress(address) && !allowPrivate ? `address ${address} is loopback or private` : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http(s).request that refuses addresses deliveries may not reach. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as dns.LookupAddress[];
      const refused = list.map((a) => addressProblem(a.address, allowPrivate)).find((p) => p !== null);
      if (refused) return callback(Object.assign(new Error(refused), { code: 'EADDRNOTALLOWED' }), '');
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
