/** The old path, for webhooks/webhook.worker.ts until it imports sync.service.ts (then this file goes). */
export { toEntry } from './sync.service.js';
