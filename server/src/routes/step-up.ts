import { STEP_UP_REQUIRED, STEP_UP_WINDOW_MS } from '@kestrel/contracts/account';
import type { FastifyRequest } from 'fastify';
import { requireAuth } from '../core/auth';
import { HttpError } from '../lib/http-error';

export const STEP_UP_MESSAGE =
  'Enter your password again to continue: this action needs it within the last 5 minutes';

/**
 * preHandler of the actions that need the password given in the last 5 minutes (adding or replacing exchange keys,
 * switching to mainnet, starting a live bot). Put it after `authenticate`. Sign-in, sign-up and
 * `POST /api/v1/account/step-up` record the time on the session. The answer is a 403 (the session is fine, so the
 * browser must not sign out) with code `STEP_UP_REQUIRED`, on which pages open a password prompt and retry
 */
export async function requireStepUp(request: FastifyRequest): Promise<void> {
  const auth = requireAuth(request);
  const at = await request.server.authService.stepUpAt(auth.sessionId);
  const now = request.server.clock.now().getTime();
  if (at === null || now - at.getTime() >= STEP_UP_WINDOW_MS) {
    throw new HttpError(403, STEP_UP_REQUIRED, STEP_UP_MESSAGE);
  }
}
