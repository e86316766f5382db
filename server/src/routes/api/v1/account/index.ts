import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  AccountEventsQuerySchema,
  AccountEventsResponseSchema,
  AccountSettingsResponseSchema,
  AccountSettingsSchema,
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  DeleteAccountRequestSchema,
  ProfileResponseSchema,
  RevokeOtherSessionsResponseSchema,
  StepUpRequestSchema,
  StepUpResponseSchema,
  UpdateProfileRequestSchema,
} from '@kestrel/contracts/account';
import { requireAuth } from '../../../../core/auth';
import { callerId, clientInfo, ERRORS, ok, okMessage, signedInRoutes } from '../../../route-schemas';

/** Calls that check the password again: 403 wrong password, 429 too many wrong ones */
const passwordErrors = { ...ERRORS.input, 403: ErrorResponseSchema, 429: ErrorResponseSchema };

/** The signed-in user's account: profile, password, sessions, step-up, deletion, audit, settings */
export default signedInRoutes('account', async (app, route) => {
  app.patch(
    '/profile',
    route({
      summary: 'Change the display name (empty clears it)',
      body: UpdateProfileRequestSchema,
      response: { 200: ProfileResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(
        await app.accountService.updateProfile(requireAuth(request), clientInfo(request), request.body.name),
        'Profile saved',
      ),
  );

  app.post(
    '/password',
    route({
      summary: 'Change the password (current one required); every other session is signed out',
      body: ChangePasswordRequestSchema,
      response: { 200: ChangePasswordResponseSchema, ...passwordErrors },
    }),
    async (request) =>
      ok(
        await app.accountService.changePassword(requireAuth(request), clientInfo(request), request.body),
        'Password changed',
      ),
  );

  app.delete(
    '/sessions',
    route({
      summary: 'Sign out every other session (this one stays)',
      response: { 200: RevokeOtherSessionsResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) =>
      ok(
        await app.accountService.revokeOtherSessions(requireAuth(request), clientInfo(request)),
        'Other sessions signed out',
      ),
  );

  app.post(
    '/step-up',
    route({
      summary: 'Give the password again for the sensitive actions of the next 5 minutes',
      description:
        'Adding or replacing exchange keys, switching to mainnet and starting a live bot answer 403 STEP_UP_REQUIRED unless the password was given in the last 5 minutes.',
      body: StepUpRequestSchema,
      response: { 200: StepUpResponseSchema, ...passwordErrors },
    }),
    async (request) =>
      ok(
        await app.accountService.stepUp(requireAuth(request), clientInfo(request), request.body.password),
        'Password confirmed',
      ),
  );

  app.post(
    '/delete',
    route({
      summary:
        'Delete the account: stops every bot, deletes stored keys and everything else, signs out everywhere',
      body: DeleteAccountRequestSchema,
      response: { 200: MessageResponseSchema, ...passwordErrors },
    }),
    async (request) => {
      const { password, confirmation } = request.body;
      await app.accountService.deleteAccount(requireAuth(request), password, confirmation);
      return okMessage('Account deleted');
    },
  );

  app.get(
    '/events',
    route({
      summary: 'The account audit, newest first',
      querystring: AccountEventsQuerySchema,
      response: { 200: AccountEventsResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await app.accountAudit.list(callerId(request), request.query.limit), 'Account events'),
  );

  app.get(
    '/settings',
    route({
      summary: 'Settings stored on the server (default risk limits of new bots)',
      response: { 200: AccountSettingsResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await app.accountService.settings(callerId(request)), 'Settings'),
  );

  app.put(
    '/settings',
    route({
      summary: 'Replace the settings stored on the server',
      body: AccountSettingsSchema,
      response: { 200: AccountSettingsResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(
        await app.accountService.updateSettings(requireAuth(request), clientInfo(request), request.body),
        'Settings saved',
      ),
  );
});
