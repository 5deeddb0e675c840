import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { invalidParam } from './errors.js';

/** Where the language of a request came from before `i18n_language` is applied. */
interface RootedMessage extends IncomingMessage {
  calRootLang?: string;
}

/**
 * Builds Fastify's `rewriteUrl`: `/fr/cal/events/v1/events` is served by the same route as
 * `/cal/events/v1/events`, remembering that the REST root was French. `/en/` (the default
 * language's code) is accepted as well. This is the only place that knows about language roots.
 */
export function languageRootRewriter(config: Config): (req: IncomingMessage) => string {
  const prefixes = new Set(config.languages);
  return (req: RootedMessage) => {
    const url = req.url ?? '/';
    const match = /^\/([a-z]{2})(?=\/|\?|$)/.exec(url);
    if (match && prefixes.has(match[1]!)) {
      req.calRootLang = match[1];
      const rest = url.slice(3);
      return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
    }
    req.calRootLang = config.defaultLanguage;
    return url;
  };
}

export function rootLanguageOf(request: FastifyRequest): string {
  return (request.raw as RootedMessage).calRootLang!;
}

/** The request's language: `i18n_language` (query, then body) over the REST root's. */
export function resolveLanguage(config: Config, request: FastifyRequest): string {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.['i18n_language'];
  const body = request.body;
  const fromBody =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)['i18n_language']
      : undefined;
  const requested = fromQuery ?? fromBody;
  if (requested === undefined || requested === '') return rootLanguageOf(request);
  if (typeof requested !== 'string' || !config.languages.includes(requested)) {
    throw invalidParam('i18n_language', `i18n_language is not one of ${config.languages.join(', ')}.`);
  }
  return requested;
}

/** The REST root path of a language: `/` for the default one, `/xx/` for the others. */
export function rootPathOf(config: Config, lang: string): string {
  return lang === config.defaultLanguage ? '/' : `/${lang}/`;
}
