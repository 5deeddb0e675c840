import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import { redactUrl } from './redact.js';

/**
 * Every request this service makes to an address someone else chose (webhook deliveries, import
 * sources) goes through here, so that none of them reaches inside the network (SSRF):
 *
 * - the destination is checked before connecting (an address in the URL, a loopback name) and
 *   again inside the connection's own DNS lookup, so the address checked is the one connected to
 *   (a name re-pointed between the check and the connection, DNS rebinding, gains nothing);
 * - redirects are followed by hand, at most a few, each hop checked like the first, and
 *   credentials are not carried to another origin;
 * - the body is streamed with a byte cap (decoded bytes: a compressed bomb stops at the cap too)
 *   and the whole exchange has a deadline.
 *
 * Loopback, private, link-local and other non-public addresses are refused unless the caller's
 * policy allows private ones (CAL_WEBHOOKS_ALLOW_PRIVATE, CAL_IMPORT_ALLOW_PRIVATE); the cloud
 * metadata addresses are refused always, as they hand out the machine's credentials. An IPv4
 * address written inside an IPv6 one (mapped, compatible, NAT64, 6to4) is judged as that IPv4.
 */

/** public: anyone may reach it; private: only with allowPrivate; forbidden: never. */
export type AddressKind = 'public' | 'private' | 'forbidden';

const RANK: Record<AddressKind, number> = { public: 0, private: 1, forbidden: 2 };
const worst = (a: AddressKind, b: AddressKind): AddressKind => (RANK[a] >= RANK[b] ? a : b);

type Range = readonly [network: string, prefix: number, kind: AddressKind];

const IPV4_RANGES: readonly Range[] = [
  // Link-local: the cloud metadata services (169.254.169.254 on AWS, GCP, Azure, OpenStack, Oracle;
  // 169.254.170.2, ECS task credentials) and nothing a webhook or a calendar lives on.
  ['169.254.0.0', 16, 'forbidden'],
  ['100.100.100.200', 32, 'forbidden'], // Alibaba Cloud metadata
  ['168.63.129.16', 32, 'forbidden'], // Azure host services (a public address every VM reaches)
  ['0.0.0.0', 8, 'private'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'],
  ['127.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'private'],
  ['192.0.2.0', 24, 'private'],
  ['192.88.99.0', 24, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'private'],
  ['198.51.100.0', 24, 'private'],
  ['203.0.113.0', 24, 'private'],
  ['224.0.0.0', 3, 'private'],
];

const ipv4Number = (address: string): number => address.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function classifyIpv4(value: number): AddressKind {
  for (const [network, prefix, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    if (Math.floor(value / size) === Math.floor(ipv4Number(network) / size)) return kind;
  }
  return 'public';
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad and a zone allowed). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const v4 = ipv4Number(quad[1]!);
    text = `${text.slice(0, -quad[1]!.length)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => parseInt(g, 16));
}

/** Whether the first `bits` bits of `groups` are those of `prefix` (groups, zero-filled). */
function within(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i += 1, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

const v4Of = (high: number, low: number) => classifyIpv4(high * 65536 + low);

type Ipv6Rule = readonly [prefix: number[], bits: number, kind: (g: number[]) => AddressKind];

/** The first rule whose prefix matches decides. */
const IPV6_RULES: readonly Ipv6Rule[] = [
  [[0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254], 128, () => 'forbidden'], // AWS metadata over IPv6
  [[0xfd20, 0x00ce, 0, 0, 0, 0, 0, 0x0254], 128, () => 'forbidden'], // GCP metadata over IPv6
  // Link-local, as 169.254.0.0/16: no webhook or calendar lives there, the metadata services may.
  [[0xfe80], 10, () => 'forbidden'],
  [[0, 0, 0, 0, 0, 0xffff], 96, (g) => v4Of(g[6]!, g[7]!)], // IPv4-mapped ::ffff:a.b.c.d
  [[0, 0, 0, 0, 0xffff, 0], 96, (g) => v4Of(g[6]!, g[7]!)], // IPv4-translated ::ffff:0:a.b.c.d
  [[0x64, 0xff9b], 96, (g) => v4Of(g[6]!, g[7]!)], // NAT64 64:ff9b::a.b.c.d
  [[0x64, 0xff9b, 1], 48, (g) => worst('private', v4Of(g[6]!, g[7]!))], // local-use NAT64
  [[0x2002], 16, (g) => v4Of(g[1]!, g[2]!)], // 6to4 2002:aabb:ccdd::
  [[0, 0, 0, 0, 0, 0], 96, (g) => worst('private', v4Of(g[6]!, g[7]!))], // ::, ::1, IPv4-compatible ::a.b.c.d
  [[0x2001, 0], 32, () => 'private'], // Teredo (its IPv4 addresses are obfuscated)
  [[0x2001, 0x0db8], 32, () => 'private'], // documentation
  [[0x2001, 0x0002, 0], 48, () => 'private'], // benchmarking
  [[0x2001, 0x0010], 28, () => 'private'], // ORCHID
  [[0x2000], 3, () => 'public'], // global unicast
];

function classifyIpv6(address: string): AddressKind {
  const groups = ipv6Groups(address);
  for (const [prefix, bits, kind] of IPV6_RULES) if (within(groups, prefix, bits)) return kind(groups);
  // Unique local, link-local, multicast, discard, reserved: nothing public lives outside 2000::/3.
  return 'private';
}

/** What an IP address is to an outbound request; anything that is not an IP address is private. */
export function classifyAddress(address: string): AddressKind {
  const family = net.isIP(address.replace(/%.*$/, ''));
  if (family === 4) return classifyIpv4(ipv4Number(address));
  if (family === 6) return classifyIpv6(address);
  return 'private';
}

/** Names that are loopback or local by definition (RFC 6761, RFC 6762, RFC 8375, /etc/hosts). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$|^ip6-(localhost|loopback)$/;
/** The cloud metadata services' own names. */
const METADATA_NAME = /^(metadata\.google\.internal|metadata\.goog|metadata|instance-data(\.ec2\.internal)?)$/;

export interface OutboundPolicy {
  /** Loopback and private addresses may be reached (never the cloud metadata ones). */
  allowPrivate: boolean;
  /** How addresses are judged; tests replace it to treat a loopback server as public. */
  classify?: (address: string) => AddressKind;
  /** How names are resolved (dns.lookup with all: true by default). */
  resolve?: (hostname: string) => Promise<dns.LookupAddress[]>;
}

export interface DestinationProblem {
  /** private: CAL_…_ALLOW_PRIVATE would allow it; forbidden: nothing does. */
  kind: 'private' | 'forbidden';
  message: string;
}

function judged(what: string, kind: AddressKind, policy: OutboundPolicy): DestinationProblem | null {
  if (kind === 'forbidden')
    return { kind, message: `${what} is a cloud metadata or link-local address, which is never reached` };
  if (kind === 'private' && !policy.allowPrivate) return { kind, message: `${what} is a loopback or private address` };
  return null;
}

/** Why a resolved address may not be connected to under `policy`, or null. */
export function addressProblem(address: string, policy: OutboundPolicy): DestinationProblem | null {
  return judged(address, (policy.classify ?? classifyAddress)(address), policy);
}

/**
 * Why the host of `url` may not be reached under `policy` before anything is resolved, or null:
 * an address written in the URL (connected to without a lookup), a loopback or local name, a
 * metadata service's name. A name that resolves to a refused address is caught at connect time.
 */
export function hostProblem(url: URL, policy: OutboundPolicy): DestinationProblem | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) !== 0) return addressProblem(host, policy);
  // `LOCALHOST.` is localhost: URL lower-cases names, and a trailing dot only roots one.
  const name = host.replace(/\.+$/, '');
  if (METADATA_NAME.test(name))
    return { kind: 'forbidden', message: `${name} is a cloud metadata service, which is never reached` };
  if (LOCAL_NAME.test(name) && !policy.allowPrivate)
    return { kind: 'private', message: `${name} names a loopback or private host` };
  return null;
}

/** Why `url` may not be requested at all under `policy` (scheme, host), or null. */
export function destinationProblem(url: URL, policy: OutboundPolicy): DestinationProblem | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { kind: 'forbidden', message: `${url.protocol} is not http: or https:` };
  return hostProblem(url, policy);
}

/**
 * destinationProblem, and the addresses the name resolves to now: lets a route answer 400 at
 * once instead of failing later in the background. Advisory only (the name may change before the
 * connection, which checks again); a name that does not resolve is not judged here.
 */
export async function resolvedProblem(url: URL, policy: OutboundPolicy): Promise<DestinationProblem | null> {
  const problem = destinationProblem(url, policy);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (problem || net.isIP(host) !== 0) return problem;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(host);
  } catch {
    return null;
  }
  for (const { address } of addresses) {
    const refused = addressProblem(address, policy);
    if (refused) return { kind: refused.kind, message: `${host}: ${refused.message}` };
  }
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

const systemResolve = (hostname: string): Promise<dns.LookupAddress[]> =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A `lookup` for http(s).request that refuses, at connect time, the addresses `policy` refuses. */
export function guardedLookup(policy: OutboundPolicy) {
  const resolve = policy.resolve ?? systemResolve;
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (all) => {
        const list =
          options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        // One refused address refuses the name: which one a connection would use is not ours to pick.
        const refused = all.map((a) => addressProblem(a.address, policy)).find((p) => p !== null);
        if (refused)
          return callback(
            Object.assign(new Error(`${hostname}: ${refused.message}`), {
              code: 'EADDRNOTALLOWED',
              destination: refused.kind,
            }),
            '',
          );
        if (list.length === 0)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** Why an outbound request failed; `retryable` when trying again later may help. */
export class OutboundError extends Error {
  constructor(
    readonly reason: 'destination' | 'redirect' | 'too-large' | 'timeout' | 'network',
    message: string,
    /** For a refused destination: whether allowing private addresses would have let it through. */
    readonly destination?: DestinationProblem['kind'],
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.reason === 'timeout' || this.reason === 'network';
  }
}

export interface OutboundOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Most bytes of the (decoded) body read. */
  maxBytes: number;
  /** Past maxBytes: fail with `too-large` (default), or keep the first bytes and stop reading. */
  overflow?: 'error' | 'truncate';
  /** Redirects followed (each hop checked); 0 answers the redirect itself. */
  maxRedirects?: number;
  /** The whole exchange, every hop and the body included. */
  timeoutMs: number;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  truncated: boolean;
}

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sockets are kept alive per policy, never shared between policies: a connection checked under a
 * lenient policy must not serve a strict one. A policy with its own resolver or judge (tests)
 * gets a connection of its own per request.
 */
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, policy: OutboundPolicy): http.Agent | false {
  if (policy.classify || policy.resolve) return false;
  const key = `${protocol}${policy.allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, lookup: guardedLookup(policy) as never, maxSockets: 16 };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * One request under `policy`: destination checked, redirects followed and re-checked, body read
 * up to the cap within the deadline. Throws OutboundError (its message names the URL without
 * credentials or secret query values, and never quotes the answer).
 */
export async function outboundRequest(
  rawUrl: string,
  policy: OutboundPolicy,
  options: OutboundOptions,
): Promise<OutboundResponse> {
  const deadline = Date.now() + options.timeoutMs;
  const maxRedirects = options.maxRedirects ?? 0;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundError('destination', 'not a URL', 'forbidden');
  }
  let method = options.method ?? 'GET';
  let body = options.body;
  let headers = { ...options.headers };
  for (let hop = 0; ; hop += 1) {
    const problem = destinationProblem(url, policy);
    if (problem)
      throw new OutboundError('destination', `${redactUrl(url.toString())}: ${problem.message}`, problem.kind);
    const response = await exchange(url, policy, { ...options, method, headers, body }, deadline);
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null || maxRedirects === 0) return response;
    if (hop >= maxRedirects)
      throw new OutboundError('redirect', `${redactUrl(url.toString())}: more than ${maxRedirects} redirects`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new OutboundError('redirect', `${redactUrl(url.toString())} redirected to something that is not a URL`);
    }
    // Credentials given for one server are not handed to another (nor over a downgrade to http:),
    // whether in a header or in the URL (a relative Location inherits the user info).
    if (url.origin !== next.origin) {
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(authorization|cookie)$/i.test(name)));
      next.username = '';
      next.password = '';
    }
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next;
  }
}

interface Exchange extends OutboundOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
}

/** One hop: the request, and the body through the decoder and the cap. */
function exchange(url: URL, policy: OutboundPolicy, options: Exchange, deadline: number): Promise<OutboundResponse> {
  const shown = redactUrl(url.toString());
  const cap = options.maxBytes;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const client = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const request = client.request(
      url,
      {
        method: options.method,
        headers,
        agent: agentFor(url.protocol, policy),
        lookup: guardedLookup(policy) as never,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
            answerHeaders.append(name, v);
        }
        const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
        const declared = Number(response.headers['content-length']);
        if (encoding === 'identity' && declared > cap && options.overflow !== 'truncate') {
          return fail(
            new OutboundError('too-large', `${shown} answered ${declared} bytes, more than the ${cap} allowed`),
          );
        }
        const decoder =
          encoding === 'gzip' || encoding === 'x-gzip'
            ? zlib.createGunzip()
            : encoding === 'deflate'
              ? zlib.createInflate()
              : encoding === 'br'
                ? zlib.createBrotliDecompress()
                : null;
        const stream = decoder ? response.pipe(decoder) : response;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (truncated: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (truncated) request.destroy();
          resolve({
            status,
            headers: answerHeaders,
            body: Buffer.concat(chunks, size),
            url: url.toString(),
            truncated,
          });
        };
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          if (size + chunk.length <= cap) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          if (options.overflow !== 'truncate')
            return fail(new OutboundError('too-large', `${shown} answered more than the ${cap} bytes allowed`));
          chunks.push(chunk.subarray(0, cap - size));
          size = cap;
          done(true);
        });
        stream.on('end', () => done(false));
        if (decoder)
          decoder.on('error', () =>
            fail(new OutboundError('network', `${shown}: its ${encoding} answer does not decode`)),
          );
        response.on('error', (error: Error) => fail(new OutboundError('network', `${shown}: ${error.message}`)));
        response.on('close', () => {
          if (!response.complete)
            fail(new OutboundError('network', `${shown}: the connection closed before the answer was complete`));
        });
      },
    );
    const timer = setTimeout(
      () =>
        fail(
          new OutboundError(
            'timeout',
            `${shown}: no complete answer within ${Math.round(options.timeoutMs / 100) / 10} s`,
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
    request.on('error', (error: NodeJS.ErrnoException & { destination?: DestinationProblem['kind'] }) => {
      if (error.code === 'EADDRNOTALLOWED')
        return fail(new OutboundError('destination', `${shown}: ${error.message}`, error.destination));
      fail(
        new OutboundError(
          'network',
          `${shown}: ${error.code === 'ECONNREFUSED' ? 'connection refused' : error.message}`,
        ),
      );
    });
    request.end(options.body);
  });
}
