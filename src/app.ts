import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyHttpOptions,
  type FastifyServerOptions,
} from 'fastify';
import type { Server } from 'node:http';
import swagger from '@fastify/swagger';
import cors from '@fastify/cors';
import compress from '@fastify/compress';
import type { Config } from './config.js';
import { SLUG_MAX_ENCODED_LENGTH } from './lib/slug.js';
import type { Storage } from './db/connect.js';
import { ADMIN_NAMESPACE, buildContext, NAMESPACE, type Access } from './http/context.js';
import { ErrorSchema } from './http/schemas.js';
import { registerErrorHandler } from './http/errors.js';
import { sharedSerializerFactory, sharedValidatorFactory } from './http/schema-compilers.js';
import { mayCall, withAccessLast } from './http/access.js';
import { mergeQueryIntoBody, registerBodyParsers } from './http/bodies.js';
import { languageRootRewriter, resolveLanguage } from './http/languages.js';
import { parseQueryString, splitCsvArrays } from './http/params.js';
import { applyFieldsFilter } from './http/fields.js';
import { RouteTable } from './http/route-table.js';
import { PageCache } from './http/page-cache.js';
import { InFlight } from './http/in-flight.js';
import { registerOverloadGuard } from './http/overload.js';
import { boundNumericInputs } from './http/numbers.js';
import { clientErrorHandler, frameworkErrors } from './http/client-errors.js';
import { handlerInTicket } from './http/in-process.js';
import { registerCrossSiteGuard, registerSecurityHeaders } from './http/security.js';
import { CountCache } from './db/count-cache.js';
import { SettingsStore } from './modules/settings/settings.service.js';
import { discoveryRoutes } from './modules/discovery/discovery.routes.js';
import { eventRoutes } from './modules/events/event.routes.js';
import { eventFeeds } from './modules/feeds/feed.routes.js';
import { venueRoutes } from './modules/venues/venue.routes.js';
import { organizerRoutes } from './modules/organizers/organizer.routes.js';
import { termRoutes } from './modules/terms/term.routes.js';
import { userRoutes } from './modules/users/user.routes.js';
import { sessionRoutes } from './modules/users/session.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { isPagePath, pageRoutes, type PageHandler } from './modules/pages/pages.routes.js';
import { syncRoutes } from './modules/sync/sync.routes.js';
import { healthRoutes } from './modules/operations/health.routes.js';
import { registerMetrics } from './modules/operations/metrics.routes.js';
import { registerDraining } from './modules/operations/operations.draining.js';
import { webhookRoutes } from './modules/webhooks/webhook.routes.js';
import { importRoutes } from './modules/import/import.routes.js';
import { sitemapRoutes } from './modules/sitemap/sitemap.routes.js';
import { adminAppRoutes } from './modules/admin-app/admin-app.routes.js';
import { defaultAdminDir } from './modules/admin-app/admin-app.service.js';
import { EventSchema } from './modules/events/event.schema.js';
import { linkedSchemas } from './modules/linked/linked.schema.js';
import { VENUE } from './modules/venues/venue.kind.js';
import { ORGANIZER } from './modules/organizers/organizer.kind.js';
import { EmbeddedTermSchema, TermSchema } from './modules/terms/term.schema.js';
import { Authenticator, registerAuthentication } from './modules/users/authentication.service.js';
import { Mailer } from './modules/mail/mail.service.js';
import { Submissions } from './modules/submissions/submission.service.js';
import { submissionRoutes } from './modules/submissions/submission.routes.js';

export interface AppDeps {
  storage: Storage;
  logger?: FastifyServerOptions['logger'];
  /** Where the built admin is (tests build their own); dist/admin by default. */
  adminDir?: string;
}

/** Shared by every module: the storage, settings, configuration and the route table. */
export interface Services {
  config: Config;
  storage: Storage;
  settings: SettingsStore;
  routes: RouteTable;
  pageCache: PageCache;
  inFlight: InFlight;
  counts: CountCache;
  auth: Authenticator;
  /** Events from the public form, and their moderation (issue 29). */
  submissions: Submissions;
  mailer: Mailer;
  /** Set when shutdown begins: readiness answers 503 so load balancers stop sending work. */
  lifecycle: { draining: boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** One log line per request, when it completes: logging is a visible share of a cached read. */
class CompletedOnlyLogController extends LogController {
  override incomingRequest(): void {}

  /** The line of a finished request names its route pattern and user (never credentials). */
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      res: reply,
      responseTime: reply.elapsedTime,
      method: request.method,
      route: request.routeOptions?.url ?? null,
      user: request.ctx?.actor?.id ?? null,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** A connection with nothing sent either way for this long is closed (a request in progress included). */
const CONNECTION_IDLE_MS = 120_000;
/** Node's own limit on the time to send a request's headers. */
const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;

/** Fastify's own settings: parsers, limits, timeouts, logging and validation. */
function serverOptions(config: Config, deps: AppDeps): FastifyHttpOptions<Server> {
  return {
    logger: deps.logger ?? { level: config.logLevel },
    // CAL_TRUST_PROXY: whose X-Forwarded-For and -Proto to believe (request.ip, request.protocol).
    trustProxy: typeof config.trustProxy === 'boolean' ? config.trustProxy : [...config.trustProxy],
    bodyLimit: 1024 * 1024,
    rewriteUrl: languageRootRewriter(config),
    // Path parameters as long as the longest percent-encoded slug (src/lib/slug.ts), so every page is reachable.
    routerOptions: {
      querystringParser: parseQueryString,
      ignoreTrailingSlash: true,
      maxParamLength: SLUG_MAX_ENCODED_LENGTH,
    },
    requestIdHeader: 'x-request-id',
    frameworkErrors,
    clientErrorHandler,
    logController: new CompletedOnlyLogController(),
    // While closing, requests still arriving get our 503 body, readiness its checks (operations.draining.ts).
    return503OnClosing: false,
    // Serializers and validators compiled once per process, whichever app asks (src/http/schema-compilers.ts).
    schemaController: {
      compilersFactory: { buildSerializer: sharedSerializerFactory, buildValidator: sharedValidatorFactory },
    },
    ajv: {
      customOptions: {
        coerceTypes: 'array',
        allErrors: true,
        removeAdditional: false,
        useDefaults: true,
        strict: false,
      },
    },
    // A client must send its whole request within CAL_REQUEST_TIMEOUT_MS (a body sent a byte at a
    // time held a connection open indefinitely), checked every second rather than Node's 30 s; a
    // connection silent both ways for two minutes is closed.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: CONNECTION_IDLE_MS,
    http: {
      connectionsCheckingInterval: 1000,
      ...(config.requestTimeoutMs > 0
        ? { headersTimeout: Math.min(config.requestTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS) }
        : {}),
    },
  };
}

/**
 * Answers compressed as the client accepts (brotli, else gzip): pages, feeds, the API's JSON, the
 * admin's files, every text, JSON, XML, JavaScript or SVG answer of 1 KB or more (below that the
 * framing costs more than it saves). Images and anything else already compressed pass as they
 * are, and so would `text/event-stream` (none here), which must never be buffered. Brotli at
 * quality 4: most of the gain of 11 at a small share of its time, paid on every answer. Entity
 * tags stay those of the uncompressed bytes, so a 304 is decided before compressing and `If-Match`
 * keeps working with a tag read from a compressed answer; `Vary: Accept-Encoding` (kept beside
 * Authorization and Cookie) keeps shared caches from handing one encoding to another client.
 * Request bodies are not decompressed: the body limit then bounds what a client makes us parse.
 */
async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
  });
}

/** The services every module shares, one set per app. */
function buildServices(config: Config, deps: AppDeps): Services {
  const settings = new SettingsStore(deps.storage.db, config);
  const mailer = new Mailer(deps.storage.db, config);
  return {
    config,
    storage: deps.storage,
    settings,
    routes: new RouteTable(),
    pageCache: new PageCache(deps.storage.db),
    inFlight: new InFlight(),
    counts: new CountCache(),
    auth: new Authenticator(deps.storage.db, config),
    lifecycle: { draining: false },
    mailer,
    submissions: new Submissions({
      db: deps.storage.db,
      config,
      settings,
      mailer,
      policy: { max: config.recurrenceMax, horizonDays: config.recurrenceHorizonDays, now: () => new Date() },
    }),
  };
}

/** Builds the service; never listens and never reads process.env (server.ts does both). */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(config, deps));

  const services = buildServices(config, deps);
  const { routes } = services;
  app.decorate('services', services);
  registerBodyParsers(app);
  app.decorateRequest('ctx', null as never);
  // The shared components, at the root so every module can refer to every other's (an event embeds
  // venues, organizers and terms) and the OpenAPI documents list them under components.schemas.
  for (const schema of [
    ErrorSchema,
    EventSchema,
    linkedSchemas(VENUE).object,
    linkedSchemas(ORGANIZER).object,
    TermSchema,
    EmbeddedTermSchema,
  ])
    app.addSchema(schema);
  app.addHook('onRoute', (route) => {
    routes.add(route);
    boundNumericInputs(route);
    withAccessLast(route);
    services.inFlight.track(route);
    handlerInTicket(route);
  });
  registerErrorHandler(app);

  // First of all hooks: an overloaded instance refuses work before authenticating or reading anything.
  await registerOverloadGuard(app, config);
  registerDraining(app);
  await registerSecurityHeaders(app, config);
  // Before authentication: a write forged by another site's page is refused before any password check.
  registerCrossSiteGuard(app, config);
  registerAuthentication(app, services.auth);
  await registerCompression(app);
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.bare) return;
    mergeQueryIntoBody(request);
    splitCsvArrays(request.query, request.routeOptions.schema?.querystring as never);
    splitCsvArrays(request.body, request.routeOptions.schema?.body as never);
    const lang = resolveLanguage(config, request);
    request.ctx = buildContext(config, request, lang, request.ctx.actor, await services.settings.get());
  });
  app.addHook('preSerialization', applyFieldsFilter);
  app.addHook('onSend', async (request, reply) => {
    if (reply.hasHeader('Allow')) return;
    const allow = routes.allowFor(request.routeOptions.url, (access) =>
      mayCall(request.ctx?.actor ?? null, access as Access),
    );
    if (allow) void reply.header('Allow', allow);
  });

  // Browser clients on other origins: credentials travel in the Authorization header, never cookies
  // (no Access-Control-Allow-Credentials: a session's answers are never shown to another origin).
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'X-Request-Id',
      'If-Match',
      'If-None-Match',
      'If-Modified-Since',
      'X-Cal-Nonce',
    ],
    exposedHeaders: ['X-Cal-Total', 'X-Cal-TotalPages', 'Allow', 'Retry-After', 'ETag'],
    maxAge: 600,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Event Calendar REST API',
        version: '1.0.0',
        description:
          'Calendar events, venues, organizers, event categories and tags (cal/events/v1), one REST root per site language.',
      },
      components: {
        securitySchemes: {
          basic: { type: 'http', scheme: 'basic', description: 'Username and application password' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'cal_session', description: 'Session cookie (POST /session)' },
          nonce: { type: 'apiKey', in: 'header', name: 'X-Cal-Nonce', description: "The session's nonce" },
        },
      },
    },
    hideUntagged: false,
    // Paths are relative to the namespace, which is what the document's `servers` URL points at.
    transform: ({ schema, url }) => ({ schema: schema as never, url: url.replace(`/${NAMESPACE}`, '') || '/' }),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  await app.register(healthRoutes);
  await registerMetrics(app);
  await app.register(discoveryRoutes);
  // The iCalendar and JSON-LD answers of the event routes are the feeds module's (it depends on events).
  await app.register(eventRoutes, { feeds: eventFeeds(app) });
  await app.register(venueRoutes);
  await app.register(organizerRoutes);
  await app.register(termRoutes);
  await app.register(userRoutes, { prefix: `/${ADMIN_NAMESPACE}` });
  await app.register(sessionRoutes, { prefix: `/${ADMIN_NAMESPACE}` });
  await app.register(settingsRoutes, { prefix: `/${ADMIN_NAMESPACE}` });
  await app.register(importRoutes, { prefix: `/${ADMIN_NAMESPACE}` });
  await app.register(syncRoutes);
  await app.register(webhookRoutes, { prefix: `/${ADMIN_NAMESPACE}` });
  await app.register(submissionRoutes, { prefix: `/${ADMIN_NAMESPACE}` });
  await app.register(sitemapRoutes);
  await app.register(adminAppRoutes, { dir: deps.adminDir ?? defaultAdminDir() });
  let pageNotFound: PageHandler | null = null;
  await app.register(pageRoutes, { notFound: (handler) => (pageNotFound = handler) });

  // Unknown addresses among the public pages get the site's 404 page; the API's get its JSON error.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    if (pageNotFound && (request.method === 'GET' || request.method === 'HEAD') && isPagePath(path))
      return pageNotFound(request, reply);
    return routes.notFound(request, reply);
  });
  return app;
}
