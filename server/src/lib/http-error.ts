/**
 * An error the client caused or may see: its message is shown to the user as-is, so it must say what is wrong
 * and must never contain a secret. Anything else that is thrown becomes a 500 with a generic text.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
