import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, noRoute, sendError, toApiError } from './errors.js';

/**
 * Errors found before a request reaches a route — by the router (an undecodable path, a path
 * segment over the router's limit) or by Node's HTTP parser (headers over 16 KB, a malformed
 * request line) — answered in the contract's error body like every other error.
 */

/** The router's refusals (Fastify's `frameworkErrors`); no hook has run, so nothing else is needed. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, routerError(error));
}

function routerError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      // A path that cannot be decoded names no route.
      return noRoute();
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(414, 'rest_uri_too_long', 'The request URI is too long.');
    default:
      return toApiError(error);
  }
}

/** What Node's parser refused, as the contract's error. */
function parserError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'rest_headers_too_large', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'rest_request_timeout', 'The request took too long to arrive.');
    default:
      return new ApiError(400, 'rest_invalid_request', 'The request could not be parsed.');
  }
}

/**
 * Node's `clientError` (Fastify's `clientErrorHandler`): the connection cannot carry another
 * request once its parser failed, so the answer says `Connection: close` and the socket is ended
 * after it is written (and destroyed if the client does not close its side within a second).
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const apiError = parserError(error);
  const body = JSON.stringify(apiError.body());
  socket.end(
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
      'Content-Type: application/json; charset=UTF-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  setTimeout(() => socket.destroy(), 1000).unref();
}
