import type { ErrorIssue, ErrorResponse } from '@kestrel/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './http-error';

function send(reply: FastifyReply, status: number, code: string, message: string, issues?: ErrorIssue[]) {
  const body: ErrorResponse = {
    success: false,
    detail: message,
    message,
    code,
    ...(issues ? { issues } : {}),
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Fastify's own client errors, with texts that never echo the body (JSON.parse messages quote it) */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    message: 'Malformed JSON body: the request body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    message: 'Empty body: a request with Content-Type application/json must carry a JSON body',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'Unsupported Content-Type: send the body as application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'Content-Length does not match the body that was sent',
  },
};

/**
 * Every error leaves in the shape the browser reads (`detail`, `message`) with the right status. 4xx texts say
 * what is wrong; 5xx texts say nothing about internals (the log has the cause).
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    reply.headers(error.headers);
    return send(reply, error.statusCode, error.code, error.message);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'body';
    const issues = error.validation.map((v) => ({
      path: [where, ...v.instancePath.split('/').filter(Boolean)].join('.'),
      message: v.message ?? 'is invalid',
    }));
    const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    return send(reply, 400, 'VALIDATION_FAILED', `Invalid request: ${summary}`, issues);
  }
  const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
  if (known) return send(reply, known.status, error.code, known.message);
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
    return send(
      reply,
      400,
      'FST_ERR_CTP_INVALID_JSON_BODY',
      FASTIFY_CLIENT_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY?.message ?? '',
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return send(reply, status, error.code ?? 'BAD_REQUEST', error.message || 'Bad request');
  }
  request.log.error({ err: error }, 'request failed');
  return send(
    reply,
    500,
    'INTERNAL',
    'Internal server error. The failure was logged; please try again later.',
  );
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0] ?? '';
  return send(reply, 404, 'NOT_FOUND', `No route ${request.method} ${path.slice(0, 200)}`);
}

/**
 * Errors the router raises before any route runs. Fastify's own answers quote the whole path back (`'<path>' is
 * exceeding the max param length`), so a 414 reflected whatever was sent; these say what is wrong without it
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return send(reply, 414, 'URL_TOO_LONG', 'URL too long: a part of the path exceeds 100 characters');
    case 'FST_ERR_BAD_URL':
      return send(reply, 400, 'BAD_URL', 'Malformed URL: the path is not validly percent-encoded');
    default:
      return send(reply, 400, 'BAD_REQUEST', 'Bad request');
  }
}

/**
 * Node's HTTP parser errors (before Fastify has a request): the same JSON shape as every other error, no part of
 * what was sent (headers, URL) in it, logged at debug only (they are the client's problem, and a flood of them must
 * not flood the log)
 */
export function clientErrorHandler(
  this: { log: { debug(obj: object, msg: string): void } },
  err: NodeJS.ErrnoException,
  socket: import('node:net').Socket,
) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'Request timeout: the request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            'HEADERS_TOO_LARGE',
            'Request headers too large: the URL and headers together must stay under 16 KiB',
          ]
        : [400, 'Bad Request', 'BAD_REQUEST', 'Malformed HTTP request'];
  this.log.debug({ code: err.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ success: false, detail: message, message, code } satisfies ErrorResponse);
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
