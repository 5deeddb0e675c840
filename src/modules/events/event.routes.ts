import type { FastifyInstance } from 'fastify';

export async function eventRoutes(_app: FastifyInstance): Promise<void> {}
