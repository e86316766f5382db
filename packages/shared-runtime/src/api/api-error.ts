import type { ApiResult } from './api-client';

/** A failed {@link ApiResult} as an exception, for query functions (TanStack Query wants a throw) */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number | undefined;
  readonly requiresLogin: boolean;

  constructor(message: string, status?: number, requiresLogin = false) {
    super(message);
    this.status = status;
    this.requiresLogin = requiresLogin;
  }
}

/** The data of a successful result, else throws an {@link ApiError} carrying the status */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.success) return result.data;
  throw new ApiError(result.error, result.status, result.requiresLogin ?? false);
}

/** True for HTTP 4xx: the request itself is wrong, so repeating it cannot help */
export function isClientError(error: unknown): boolean {
  const status =
    error && typeof error === 'object' && 'status' in error && typeof error.status === 'number'
      ? error.status
      : undefined;
  return status !== undefined && status >= 400 && status < 500;
}
