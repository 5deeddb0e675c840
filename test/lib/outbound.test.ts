import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import {
  classifyAddress,
  destinationProblem,
  outboundRequest,
  OutboundError,
  type AddressKind,
  type OutboundPolicy,
} from '../../src/lib/outbound.js';
import { excerpt, isSecretParam, redactUrl } from '../../src/lib/redact.js';
import { maskUrl } from '../../src/modules/operations/operations.configuration.js';

/** A real HTTP server on a loopback address; `handler` answers, `hits` counts the requests it got. */
async function server(
  handler: http.RequestListener,
  host = '127.0.0.1',
): Promise<{ base: string; port: number; hits: http.IncomingMessage[]; close(): Promise<void> }> {
  const hits: http.IncomingMessage[] = [];
  const s = http.createServer((req, res) => {
    hits.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, host, resolve));
  const port = (s.address() as AddressInfo).port;
  return {
    base: `http://${host}:${port}`,
    port,
    hits,
    close: () => {
      s.closeAllConnections();
      return new Promise((resolve) => s.close(() => resolve()));
    },
  };
}

const refusal = (reason: OutboundError['reason'], pattern?: RegExp) => (error: unknown) =>
  error instanceof OutboundError && error.reason === reason && (pattern === undefined || pattern.test(error.message));

describe('outbound: which addresses are reached', () => {
  const cases: [string, AddressKind][] = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['127.0.0.1', 'private'],
    ['127.255.0.9', 'private'],
    ['10.1.2.3', 'private'],
    ['172.31.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['255.255.255.255', 'private'],
    ['224.0.0.1', 'private'],
    ['::1', 'private'],
    ['::', 'private'],
    ['fe80::1', 'forbidden'],
    ['fd20:ce::254', 'forbidden'],
    ['fe80::1%eth0', 'forbidden'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'private'],
    ['2001:db8::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'private'],
    // IPv4 inside IPv6, every spelling: judged as that IPv4 (issue 25, finding 7).
    ['::127.0.0.1', 'private'],
    ['::7f00:1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['0:0:0:0:0:ffff:7f00:1', 'private'],
    ['::FFFF:7F00:0001', 'private'],
    ['::ffff:0:7f00:1', 'private'],
    ['64:ff9b::7f00:1', 'private'],
    ['64:ff9b::127.0.0.1', 'private'],
    ['64:ff9b:1::a00:1', 'private'],
    ['2002:7f00:1::', 'private'],
    ['2002:0a00:0001::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    // Cloud metadata: never, whatever the spelling.
    ['169.254.169.254', 'forbidden'],
    ['169.254.170.2', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['::ffff:a9fe:a9fe', 'forbidden'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'],
    ['2002:a9fe:a9fe::', 'forbidden'],
    ['::169.254.169.254', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['not-an-address', 'private'],
  ];
  for (const [address, kind] of cases) {
    it(`${address} is ${kind}`, () => assert.equal(classifyAddress(address), kind));
  }

  it('refuses loopback names and addresses written in URLs, and metadata even when private addresses are allowed', () => {
    const strict = { allowPrivate: false };
    const lenient = { allowPrivate: true };
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://foo.localhost/',
      'http://LOCALHOST./',
      'http://localhost../',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://printer.local/',
    ]) {
      assert.equal(destinationProblem(new URL(url), strict)?.kind, 'private', url);
      assert.equal(destinationProblem(new URL(url), lenient), null, url);
    }
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://metadata.google.internal/',
      'http://METADATA.GOOGLE.INTERNAL./',
    ]) {
      assert.equal(destinationProblem(new URL(url), lenient)?.kind, 'forbidden', url);
    }
    assert.equal(destinationProblem(new URL('file:///etc/passwd'), lenient)?.kind, 'forbidden');
    assert.equal(destinationProblem(new URL('https://calendar.example.org/'), strict), null);
  });
});

describe('outbound: redaction and excerpts', () => {
  it('removes credentials and secret-looking query values, keeps the rest', () => {
    assert.equal(
      redactUrl('https://alice:s3cret@cal.example.org/wp-json/?lang=fr'),
      'https://cal.example.org/wp-json/?lang=fr',
    );
    const shown = redactUrl(
      'https://cal.example.org/feed.ics?token=t0k&lang=fr&api_key=k3y&X-Amz-Signature=s1g&accessToken=a1&sig=x#access_token=frag',
    );
    for (const secret of ['t0k', 'k3y', 's1g', 'a1', 'frag']) assert.ok(!shown.includes(secret), shown);
    assert.match(shown, /token=REDACTED/);
    assert.match(shown, /lang=fr/);
    assert.equal(redactUrl('not a url'), '(bad URL)');
    for (const name of [
      'token',
      'key',
      'apikey',
      'api_key',
      'apiKey',
      'access_token',
      'password',
      'secret',
      'client_secret',
      'sig',
      'signature',
      'auth',
      'sslpassword',
      'X-Amz-Credential',
    ])
      assert.ok(isSecretParam(name), name);
    for (const name of ['lang', 'page', 'per_page', 'start_date', 'keyword', 'design'])
      assert.ok(!isSecretParam(name), name);
  });

  it('masks a DATABASE_URL password in the user info and in the query (the start-up line)', () => {
    const masked = maskUrl(
      'postgres://cal:dbsecret@db.example:5432/cal?password=qsecret&sslmode=require&sslpassword=keypass',
    );
    assert.ok(!masked.includes('dbsecret') && !masked.includes('qsecret') && !masked.includes('keypass'), masked);
    assert.match(masked, /^postgres:\/\/cal:\*\*\*@db\.example:5432\/cal\?/);
    assert.match(masked, /sslmode=require/);
  });

  it('quotes a remote text as one short line', () => {
    assert.equal(excerpt('short'), 'short');
    assert.equal(excerpt('a\r\n\tb\u0000c'), 'a b c');
    const long = excerpt('x'.repeat(10_000_000));
    assert.equal(long.length, 200);
    assert.ok(long.endsWith('…'));
  });
});

describe('outbound: requests', () => {
  let target: Awaited<ReturnType<typeof server>>;
  let inside: Awaited<ReturnType<typeof server>>;
  const lenient: OutboundPolicy = { allowPrivate: true };
  /** 127.0.0.1 stands for the public internet here; every other loopback address stays private. */
  const asIfPublic: OutboundPolicy = {
    allowPrivate: false,
    classify: (address) => (address === '127.0.0.1' ? 'public' : classifyAddress(address)),
    resolve: async (name) => [{ address: name === 'inside.test' ? '127.0.0.2' : '127.0.0.1', family: 4 }],
  };
  /** How many megabytes each /stream answer has sent so far. */
  const streamed: (() => number)[] = [];
  const get = (url: string, policy: OutboundPolicy, extra: Partial<Parameters<typeof outboundRequest>[2]> = {}) =>
    outboundRequest(url, policy, { maxBytes: 1024 * 1024, maxRedirects: 5, timeoutMs: 5_000, ...extra });

  before(async () => {
    inside = await server((_req, res) => res.end('inside'), '127.0.0.2');
    target = await server((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/to-inside-literal')
        return res.writeHead(302, { location: `http://127.0.0.2:${inside.port}/secret` }).end();
      if (url.pathname === '/to-inside-name')
        return res.writeHead(301, { location: `http://inside.test:${inside.port}/secret` }).end();
      if (url.pathname === '/to-metadata')
        return res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (url.pathname === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (url.pathname === '/hop') return res.writeHead(302, { location: '/ok' }).end();
      if (url.pathname === '/ok') return res.end(JSON.stringify({ auth: req.headers.authorization ?? null }));
      if (url.pathname === '/declared') return res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }).end();
      if (url.pathname === '/stream') {
        // 50 MB, a megabyte at a time, for as long as the client reads.
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        let sent = 0;
        const more = () => {
          while (sent < 50 && !res.destroyed) {
            sent += 1;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        streamed.push(() => sent);
        return more();
      }
      if (url.pathname === '/bomb')
        return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024)));
      if (url.pathname === '/gzip')
        return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('hello'));
      if (url.pathname === '/silent') return;
      res.writeHead(404).end();
    });
  });
  after(async () => {
    await target.close();
    await inside.close();
  });

  it('refuses a loopback address before connecting unless private addresses are allowed', async () => {
    const before = target.hits.length;
    await assert.rejects(
      get(`${target.base}/ok`, { allowPrivate: false }),
      refusal('destination', /127\.0\.0\.1 is a loopback or private address/),
    );
    assert.equal(target.hits.length, before, 'no request reached the server');
    assert.equal((await get(`${target.base}/ok`, lenient)).status, 200);
  });

  it('checks at connect time the address a name resolves to (DNS rebinding)', async () => {
    const rebinding: OutboundPolicy = {
      allowPrivate: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    };
    const before = target.hits.length;
    await assert.rejects(
      get(`http://calendar.example.org:${target.port}/ok`, rebinding),
      refusal('destination', /calendar\.example\.org: 127\.0\.0\.1 is a loopback or private address/),
    );
    assert.equal(target.hits.length, before);
  });

  it('follows redirects on allowed hosts, and re-checks every hop: a redirect to a private address is refused', async () => {
    const followed = await get(`${target.base}/hop`, asIfPublic);
    assert.equal(followed.status, 200);
    assert.equal(followed.url, `${target.base}/ok`);
    const before = inside.hits.length;
    await assert.rejects(
      get(`${target.base}/to-inside-literal`, asIfPublic),
      refusal('destination', /127\.0\.0\.2 is a loopback or private address/),
    );
    await assert.rejects(
      get(`http://public.test:${target.port}/to-inside-name`, asIfPublic),
      refusal('destination', /inside\.test: 127\.0\.0\.2/),
    );
    assert.equal(inside.hits.length, before, 'the private server was never reached');
    // Reachable directly when private addresses are allowed: the refusals above were the guard's.
    assert.equal((await get(`${target.base}/to-inside-literal`, lenient)).body.toString(), 'inside');
  });

  it('never follows a redirect to a cloud metadata address, even with private addresses allowed', async () => {
    await assert.rejects(
      get(`${target.base}/to-metadata`, lenient),
      refusal('destination', /169\.254\.169\.254 is a cloud metadata/),
    );
  });

  it('stops after five redirects, and answers the redirect itself when told not to follow', async () => {
    await assert.rejects(get(`${target.base}/loop`, lenient), refusal('redirect', /more than 5 redirects/));
    const unfollowed = await get(`${target.base}/hop`, lenient, { maxRedirects: 0 });
    assert.equal(unfollowed.status, 302);
  });

  it('does not carry credentials to another origin', async () => {
    const other = await server((req, res) => res.end(JSON.stringify({ auth: req.headers.authorization ?? null })));
    const hopper = await server((_req, res) => res.writeHead(302, { location: `${other.base}/` }).end());
    try {
      const sameOrigin = await get(`${target.base}/hop`, lenient, { headers: { authorization: 'Basic c2VjcmV0' } });
      assert.equal(JSON.parse(sameOrigin.body.toString()).auth, 'Basic c2VjcmV0');
      const crossOrigin = await get(`${hopper.base}/`, lenient, { headers: { authorization: 'Basic c2VjcmV0' } });
      assert.equal(JSON.parse(crossOrigin.body.toString()).auth, null);
    } finally {
      await other.close();
      await hopper.close();
    }
  });

  it('aborts an answer past the byte cap while streaming, without holding it', async () => {
    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    await assert.rejects(
      get(`${target.base}/stream`, lenient, { maxBytes: 2 * 1024 * 1024 }),
      refusal('too-large', /more than the 2097152 bytes allowed/),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = streamed.at(-1)!();
    assert.ok(sent < 20, `the server stopped sending early (${sent} of 50 MB)`);
    const grown = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heapBefore;
    assert.ok(grown < 40 * 1024 * 1024, `memory grew by ${Math.round(grown / 1048576)} MB`);
    // A declared length over the cap is refused before the body is read.
    await assert.rejects(
      get(`${target.base}/declared`, lenient, { maxBytes: 1024 }),
      refusal('too-large', /answered 52428800 bytes/),
    );
  });

  it('caps decoded bytes: a compressed bomb stops at the cap; gzip answers are decoded', async () => {
    await assert.rejects(get(`${target.base}/bomb`, lenient, { maxBytes: 1024 * 1024 }), refusal('too-large'));
    assert.equal((await get(`${target.base}/gzip`, lenient)).body.toString(), 'hello');
  });

  it('keeps the first bytes when told to truncate', async () => {
    const kept = await get(`${target.base}/stream`, lenient, { maxBytes: 1000, overflow: 'truncate' });
    assert.equal(kept.body.length, 1000);
    assert.equal(kept.truncated, true);
  });

  it('gives up at the deadline', async () => {
    const started = Date.now();
    await assert.rejects(
      get(`${target.base}/silent`, lenient, { timeoutMs: 300 }),
      refusal('timeout', /no complete answer within 0\.3 s/),
    );
    assert.ok(Date.now() - started < 2_000);
  });
});
