import type { FastifyInstance } from 'fastify';

export async function venueRoutes(_app: FastifyInstance): Promise<void> {}
