import type { FastifyInstance } from 'fastify';

export async function termRoutes(_app: FastifyInstance): Promise<void> {}
