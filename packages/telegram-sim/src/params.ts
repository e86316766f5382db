import type { IncomingMessage } from 'node:http';

/** Largest body read; the Bot API's own calls are a few kilobytes */
const BODY_LIMIT_BYTES = 1024 * 1024;

export class BodyError extends Error {}

/** The raw body of a request, refused beyond `BODY_LIMIT_BYTES` */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > BODY_LIMIT_BYTES) throw new BodyError('Request Entity Too Large');
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A call's parameters as Telegram reads them: the query string, then the body (JSON or a urlencoded form) over it.
 * Query and form values are strings; JSON keeps its types
 */
export function callParams(url: URL, contentType: string | undefined, body: string): Record<string, unknown> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (body.trim() === '') return params;
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new BodyError("Bad Request: can't parse JSON body");
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      Object.assign(params, parsed);
  } else if (type === 'application/x-www-form-urlencoded') {
    Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
  }
  return params;
}

/** An integer parameter (a number, or a string of digits as forms and queries send it); undefined otherwise */
export function intParam(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** A string parameter; numbers are read as their text (a form cannot tell them apart) */
export function stringParam(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A boolean parameter: true, "true" or "1" */
export function boolParam(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}
