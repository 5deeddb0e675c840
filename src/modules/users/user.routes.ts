import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import type { Actor } from '../../auth/roles.js';
import * as service from './user.service.js';
import { presentedSession } from './session.service.js';
import {
  CreatedUserSchema,
  DeletedSchema,
  DeletedUserSchema,
  DeleteUserQuery,
  NewPasswordSchema,
  OwnAccountUpdateSchema,
  PasswordCreateSchema,
  PasswordListSchema,
  PasswordParams,
  UserCreateSchema,
  UserIdParams,
  UserListSchema,
  UserSchema,
  UserUpdateSchema,
} from './user.schema.js';

/** Every admin route: administrators only, checked by the access hook in app.ts. */
const admin = { access: 'manage_options' } as const;
/** In the admin namespace's own OpenAPI document, /cal/admin/v1/doc (discovery.routes.ts). */
const doc = { tags: ['admin'], security: [{ basic: [] }] };
/** Routes a signed-in person uses from the admin: Basic, or the session cookie with its nonce. */
const ownDoc = { tags: ['admin'], security: [{ basic: [] }, { cookie: [], nonce: [] }] as Record<string, string[]>[] };
const signedIn = { access: 'authenticated' } as const;

/** The access hook has already refused anonymous callers, so an admin or signed-in route always has one. */
function callerOf(request: FastifyRequest): Actor {
  const actor = request.ctx.actor;
  if (actor === null) throw new Error('admin route reached without a caller');
  return actor;
}

/** Users and their application passwords, under `cal/admin/v1` (src/app.ts gives the prefix). */
export async function userRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;

  app.get(
    '/users',
    { schema: { ...doc, summary: 'List users', response: responses({ 200: UserListSchema }) }, config: admin },
    async () => service.listUsers(db),
  );

  app.post(
    '/users',
    {
      schema: {
        ...doc,
        summary: 'Create a user with a first application password',
        body: UserCreateSchema,
        response: responses({ 201: CreatedUserSchema }),
      },
      config: admin,
    },
    async (request, reply) => {
      const { user, application_password } = await service.createUser(db, request.body);
      return reply.code(201).send({ ...user, application_password });
    },
  );

  await ownAccountRoutes(app);

  app.get(
    '/users/:id',
    {
      schema: { ...doc, summary: 'Read a user', params: UserIdParams, response: responses({ 200: UserSchema }) },
      config: admin,
    },
    async (request) => service.getUser(db, request.params.id),
  );

  app.patch(
    '/users/:id',
    {
      schema: {
        ...doc,
        summary: "Change a user's role, email or login password (which ends their sessions)",
        params: UserIdParams,
        body: UserUpdateSchema,
        response: responses({ 200: UserSchema }),
      },
      config: admin,
    },
    async (request) => {
      // The caller's own session survives a change of their own password made through it.
      const keep = presentedSession(request.headers.cookie) ?? undefined;
      return service.updateUser(db, callerOf(request).id, request.params.id, request.body, keep);
    },
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        ...doc,
        summary: 'Delete a user, handing their records to another',
        params: UserIdParams,
        querystring: DeleteUserQuery,
        response: responses({ 200: DeletedUserSchema }),
      },
      config: admin,
    },
    async (request) => {
      const previous = await service.removeUser(db, request.params.id, {
        callerId: callerOf(request).id,
        reassign: request.query.reassign,
      });
      return { deleted: true, previous };
    },
  );

  app.get(
    '/users/:id/application-passwords',
    {
      schema: {
        ...doc,
        summary: "List a user's application passwords",
        params: UserIdParams,
        response: responses({ 200: PasswordListSchema }),
      },
      config: admin,
    },
    async (request) => service.listApplicationPasswords(db, request.params.id),
  );

  app.post(
    '/users/:id/application-passwords',
    {
      schema: {
        ...doc,
        summary: 'Add an application password',
        params: UserIdParams,
        body: PasswordCreateSchema,
        response: responses({ 201: NewPasswordSchema }),
      },
      config: admin,
    },
    async (request, reply) => {
      const password = await service.addApplicationPassword(db, request.params.id, request.body.name ?? '');
      return reply.code(201).send({ application_password: password });
    },
  );

  app.delete(
    '/users/:id/application-passwords/:passwordId',
    {
      schema: {
        ...doc,
        summary: 'Revoke an application password',
        params: PasswordParams,
        response: responses({ 200: DeletedSchema }),
      },
      config: admin,
    },
    async (request) => {
      await service.revokeApplicationPassword(db, request.params.id, request.params.passwordId);
      return { deleted: true };
    },
  );
}

/**
 * `/users/me`: any signed-in user's own account. Static paths: find-my-way matches them before
 * `/users/:id` whatever the order of registration.
 */
async function ownAccountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;

  app.get(
    '/users/me',
    {
      schema: { ...ownDoc, summary: 'Read your own user', response: responses({ 200: UserSchema }) },
      config: signedIn,
    },
    async (request) => service.getUser(db, callerOf(request).id),
  );

  app.patch(
    '/users/me',
    {
      schema: {
        ...ownDoc,
        summary: 'Change your own email or login password (which needs the current one)',
        body: OwnAccountUpdateSchema,
        response: responses({ 200: UserSchema }),
      },
      config: signedIn,
    },
    async (request) => app.services.auth.updateOwnAccount(request, callerOf(request), request.body),
  );
}
