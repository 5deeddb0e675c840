import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { clearedSessionCookie, sessionCookie } from './session.cookie.js';
import { endAllUserSessions, listUserSessions } from './user.service.js';
import { SessionListSchema, SessionSchema, SessionsEndedSchema, SignInSchema, SignOutQuery } from './session.schema.js';
import { UserIdParams } from './user.schema.js';

const doc = { tags: ['admin'] };
const admin = { access: 'manage_options' } as const;
const open = { access: 'public' } as const;

/** `Secure` only when the request came over HTTPS (directly, or through a proxy CAL_TRUST_PROXY names). */
const secure = (request: FastifyRequest): boolean => request.protocol === 'https';

/** What a session answer says is the browser's alone: no cache may keep it. */
const privately = (reply: FastifyReply): FastifyReply => reply.header('Cache-Control', 'private, no-store');

/**
 * Sign-in for people, under `cal/admin/v1` (src/app.ts gives the prefix): open, read and end the
 * session a cookie holds, and an administrator's view of anyone's sessions. The work is the
 * Authenticator's (authentication.service.ts), which also reads the cookie on every request.
 */
export async function sessionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { storage, auth } = app.services;

  app.post(
    '/session',
    {
      schema: {
        ...doc,
        summary: 'Sign in with a login password: sets the session cookie, answers the user and the nonce',
        security: [],
        body: SignInSchema,
        response: responses({ 200: SessionSchema }),
      },
      config: open,
    },
    async (request, reply) => {
      const { user, nonce, token, maxAgeSeconds } = await auth.signIn(
        request,
        request.body.username,
        request.body.password,
      );
      privately(reply).header('Set-Cookie', sessionCookie(token, maxAgeSeconds, secure(request)));
      return { user, nonce };
    },
  );

  app.get(
    '/session',
    {
      schema: {
        ...doc,
        summary: "The session cookie's user and nonce (no nonce needed), 401 without a valid session",
        security: [{ cookie: [] }],
        response: responses({ 200: SessionSchema }),
      },
      config: open,
    },
    async (request, reply) => {
      privately(reply);
      return auth.currentSession(request);
    },
  );

  app.delete(
    '/session',
    {
      schema: {
        ...doc,
        summary: 'Sign out: ends this session, or with everywhere=true every session of the caller',
        security: [{ cookie: [] }, { cookie: [], nonce: [] }, { basic: [] }],
        querystring: SignOutQuery,
        response: responses({ 200: SessionsEndedSchema }),
      },
      config: open,
    },
    async (request, reply) => {
      const sessions = await auth.signOut(request, request.query.everywhere === true);
      privately(reply).header('Set-Cookie', clearedSessionCookie(secure(request)));
      return { deleted: true, sessions };
    },
  );

  app.get(
    '/users/:id/sessions',
    {
      schema: {
        ...doc,
        summary: "List a user's sessions",
        security: [{ basic: [] }, { cookie: [], nonce: [] }],
        params: UserIdParams,
        response: responses({ 200: SessionListSchema }),
      },
      config: admin,
    },
    async (request) => listUserSessions(storage.db, request.params.id, auth.sessionPolicy),
  );

  app.delete(
    '/users/:id/sessions',
    {
      schema: {
        ...doc,
        summary: 'End every session of a user',
        security: [{ basic: [] }, { cookie: [], nonce: [] }],
        params: UserIdParams,
        response: responses({ 200: SessionsEndedSchema }),
      },
      config: admin,
    },
    async (request) => ({ deleted: true, sessions: await endAllUserSessions(storage.db, request.params.id) }),
  );
}
