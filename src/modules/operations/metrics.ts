/** The old path, for src/app.ts and src/server.ts until they import metrics.routes.ts and metrics.service.ts (then this file goes). */
export { registerMetrics } from './metrics.routes.js';
export { observeQuery } from './metrics.service.js';
