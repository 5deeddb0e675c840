import { HttpError } from 'react-admin';

/**
 * The one way the admin talks to the service: same origin, the session cookie sent by the
 * browser, and the session's nonce in X-Cal-Nonce on every request (without it the service
 * treats a cookie request as anonymous: the WordPress way against cross-site requests).
 * The nonce lives in memory only; after a reload GET /cal/admin/v1/session gives it again.
 */
let nonce: string | null = null;

export function setNonce(value: string | null): void {
  nonce = value;
}

export function hasNonce(): boolean {
  return nonce !== null;
}

export const EVENTS_API = '/cal/events/v1';
export const ADMIN_API = '/cal/admin/v1';

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  json: T;
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The query string the API reads: arrays as comma lists, empty values left out. */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The error body of the contract: `{code, message, data: {status, params?}}`. */
export interface ApiErrorBody {
  code?: string;
  message?: string;
  data?: { status?: number; params?: Record<string, string>; details?: unknown };
}

export async function api<T = unknown>(path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (nonce) headers['X-Cal-Nonce'] = nonce;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(path + queryString(options.query), {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });
  const text = await response.text();
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
  }
  if (!response.ok) {
    const error = (json ?? {}) as ApiErrorBody;
    // react-admin shows `message` in a notification and puts `body.errors` beside the form's fields.
    const fieldErrors = error.data?.params ?? undefined;
    throw new HttpError(error.message ?? response.statusText, response.status, {
      ...error,
      ...(fieldErrors ? { errors: fieldErrors } : {}),
    });
  }
  return { status: response.status, headers: response.headers, json: json as T };
}
