import type { FastifyInstance } from 'fastify';

export async function organizerRoutes(_app: FastifyInstance): Promise<void> {}
