import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { isValidTimezone } from '../../lib/dates.js';
import { parseSettingsPatch, SettingsPatchSchema, SettingsSchema } from './settings.schema.js';

const admin = { access: 'manage_options' } as const;
/** In the admin namespace's own OpenAPI document, as the user routes are (see users/user.routes.ts). */
const doc = { tags: ['admin'], security: [{ basic: [] }] };

/** `GET|PATCH <prefix>/settings`, registered by adminRoutes under `cal/admin/v1`. Both answer the whole settings object. */
export async function settingsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { settings, config } = app.services;

  app.get(
    '/settings',
    {
      schema: { ...doc, summary: 'Read the site settings', response: responses({ 200: SettingsSchema }) },
      config: admin,
    },
    async () => settings.get(),
  );

  app.patch(
    '/settings',
    {
      schema: {
        ...doc,
        summary: 'Change site settings',
        body: SettingsPatchSchema,
        response: responses({ 200: SettingsSchema }),
      },
      config: admin,
    },
    async (request) =>
      settings.update(
        parseSettingsPatch(request.body, { siteUrlFromEnv: config.siteUrl !== undefined, isValidTimezone }),
      ),
  );
}
