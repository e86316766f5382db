/** The text of a failed mutation, for `setError('root', …)` */
export const failureText = (err: unknown, fallback: string) =>
  err instanceof Error && err.message ? err.message : fallback;
