import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { READERS_BUSY } from '../db/sqlite-readers.js';

export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; [key: string]: unknown };
}

/** The one error type of the service; its fields become the contract's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

/** One validator's error code for a parameter, as WordPress puts it in `data.details`. */
export interface ParamDetail {
  code: string;
  message: string;
  data: null;
}

/**
 * 400 `rest_invalid_param` naming each bad parameter. `details` is keyed by parameter, each entry
 * the `{code, message, data}` of the validator that refused it, as WordPress sends it; `[]` when
 * no validator gave a code, as the original's.
 */
export function invalidParams(params: Record<string, string>, details: Record<string, ParamDetail> = {}): ApiError {
  return new ApiError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
    params,
    details: Object.keys(details).length > 0 ? details : [],
  });
}

/** One bad parameter; with `code`, its `details` entry carries that code and the reason as message. */
export function invalidParam(name: string, reason = 'Invalid parameter.', code?: string): ApiError {
  return invalidParams({ [name]: reason }, code ? { [name]: { code, message: reason, data: null } } : {});
}

export function missingParams(names: string[]): ApiError {
  return new ApiError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    params: names,
  });
}

export const notFound = (code: string, message: string): ApiError => new ApiError(404, code, message);
export const forbidden = (code: string, message: string): ApiError => new ApiError(403, code, message);
export const gone = (code: string, message: string): ApiError => new ApiError(410, code, message);
export const conflict = (code: string, message: string, data: Record<string, unknown> = {}): ApiError =>
  new ApiError(409, code, message, data);

/** WordPress's permission refusal: 401 for anonymous callers, 403 for authenticated ones. */
export function restForbidden(authenticated: boolean): ApiError {
  return new ApiError(authenticated ? 403 : 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

export const noRoute = (): ApiError =>
  new ApiError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** The top-level parameter an Ajv error is about (`/venue/website` → `venue`). */
function paramOf(error: AjvError): string {
  const name = error.instancePath.split('/')[1];
  return name
    ? decodeURIComponent(name.replace(/~1/g, '/').replace(/~0/g, '~'))
    : String(error.params['missingProperty'] ?? 'body');
}

/** Turns Fastify's schema validation failure into WordPress's two error kinds. */
function validationError(errors: AjvError[]): ApiError {
  const missing = errors
    .filter((e) => e.keyword === 'required' && e.instancePath === '')
    .map((e) => String(e.params['missingProperty']));
  if (missing.length > 0) return missingParams([...new Set(missing)]);
  const params: Record<string, string> = {};
  for (const e of errors) {
    const name = paramOf(e);
    params[name] ??=
      e.instancePath.split('/').length > 2
        ? `${name}${e.instancePath.slice(name.length + 1)} ${e.message ?? 'is invalid'}.`
        : `${name} ${e.message ?? 'is invalid'}.`;
  }
  return invalidParams(params);
}

/** Seconds a refused client is asked to wait: about two of the overload guard's samples, by when it measures again. */
const RETRY_AFTER_S = 2;

/**
 * 503 in the contract's body, from the overload guard (overload.ts) or for a read the database
 * could not take on (too many slow reads waiting: db/sqlite-readers.ts); logged as a warning by the
 * error handler, not as a failure.
 */
export class ServiceUnavailable extends ApiError {
  constructor() {
    super(
      503,
      'rest_service_unavailable',
      'The service is overloaded. Try again shortly.',
      {},
      { 'Retry-After': String(RETRY_AFTER_S) },
    );
  }
}

/** Maps anything thrown to the contract's body; never leaks an internal message. */
export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const fe = error as FastifyError & { validation?: AjvError[] };
  if (fe.validation) return validationError(fe.validation);
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'rest_request_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'rest_unsupported_media_type', 'Unsupported content type.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'rest_invalid_request', 'Invalid Content-Length.');
    case READERS_BUSY:
      return new ServiceUnavailable();
  }
  if (fe instanceof SyntaxError && fe.statusCode === 400)
    return new ApiError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError(fe.statusCode, 'rest_invalid_request', 'The request could not be processed.');
  }
  return new ApiError(500, 'rest_internal_error', 'An internal error occurred. It has been logged.');
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  return reply.code(error.status).type('application/json; charset=UTF-8').send(error.body());
}

/**
 * Headers of the answer an error replaces, which describe that answer and not the error: its
 * coding, tag, date, file name and totals. A streamed body (a feed, a page) that fails before its
 * first byte has had them copied onto the raw response already, @fastify/compress's coding among
 * them: the error's plain JSON went out labelled gzip, and a client could not read it (issue 30:
 * a feed whose first read the SQLite readers refused).
 */
const ANSWER_HEADERS = [
  'content-encoding',
  'content-disposition',
  'etag',
  'last-modified',
  'x-cal-total',
  'x-cal-totalpages',
];

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    for (const name of ANSWER_HEADERS) {
      void reply.removeHeader(name);
      if (!reply.raw.headersSent) reply.raw.removeHeader(name);
    }
    const apiError = toApiError(error);
    // A 503 is the overload guard's answer, or the SQLite readers' (their error's code says so),
    // not a failure: a warning without the stack.
    if (apiError.status === 503)
      request.log.warn(
        { code: apiError.code, cause: error.code === READERS_BUSY ? READERS_BUSY : undefined },
        'request refused under pressure',
      );
    else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError);
  });
}
