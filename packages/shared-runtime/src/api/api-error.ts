import type { ApiResult } from './api-client';

/** A failed {@link ApiResult} as an exception, for query functions (TanStack Query wants a throw) */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number | undefined;
  readonly requiresLogin: boolean;
  /** The server's error code, e.g. `CREDENTIALS_NOT_FOUND` (no exchange keys stored) */
  readonly code: string | undefined;

  constructor(message: string, status?: number, requiresLogin = false, code?: string) {
    super(message);
    this.status = status;
    this.requiresLogin = requiresLogin;
    this.code = code;
  }
}

/** The data of a successful result, else throws an {@link ApiError} carrying the status */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.success) return result.data;
  throw new ApiError(result.error, result.status, result.requiresLogin ?? false, result.code);
}

/** True for HTTP 4xx: the request itself is wrong, so repeating it cannot help */
export function isClientError(error: unknown): boolean {
  const status =
    error && typeof error === 'object' && 'status' in error && typeof error.status === 'number'
      ? error.status
      : undefined;
  return status !== undefined && status >= 400 && status < 500;
}
