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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../../../core/auth';
import { BEARER, callerId, clientInfo } from '../../../route-schemas';

const tags = ['account'];
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema };
/** Calls that check the password again: 403 wrong password, 429 too many wrong ones */
const passwordErrors = { ...errors, 403: ErrorResponseSchema, 429: ErrorResponseSchema };

/** The signed-in user's account: profile, password, sessions, step-up, deletion, audit, settings */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.patch(
    '/profile',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Change the display name (empty clears it)',
        body: UpdateProfileRequestSchema,
        response: { 200: ProfileResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.accountService.updateProfile(
        requireAuth(request),
        clientInfo(request),
        request.body.name,
      ),
      message: 'Profile saved',
    }),
  );

  app.post(
    '/password',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Change the password (current one required); every other session is signed out',
        body: ChangePasswordRequestSchema,
        response: { 200: ChangePasswordResponseSchema, ...passwordErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.accountService.changePassword(requireAuth(request), clientInfo(request), request.body),
      message: 'Password changed',
    }),
  );

  app.delete(
    '/sessions',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Sign out every other session (this one stays)',
        response: { 200: RevokeOtherSessionsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.accountService.revokeOtherSessions(requireAuth(request), clientInfo(request)),
      message: 'Other sessions signed out',
    }),
  );

  app.post(
    '/step-up',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Give the password again for the sensitive actions of the next 5 minutes',
        description:
          'Adding or replacing exchange keys, switching to mainnet and starting a live bot answer 403 STEP_UP_REQUIRED unless the password was given in the last 5 minutes.',
        body: StepUpRequestSchema,
        response: { 200: StepUpResponseSchema, ...passwordErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.accountService.stepUp(requireAuth(request), clientInfo(request), request.body.password),
      message: 'Password confirmed',
    }),
  );

  app.post(
    '/delete',
    {
      schema: {
        tags,
        security: BEARER,
        summary:
          'Delete the account: stops every bot, deletes stored keys and everything else, signs out everywhere',
        body: DeleteAccountRequestSchema,
        response: { 200: MessageResponseSchema, ...passwordErrors },
      },
    },
    async (request) => {
      const { password, confirmation } = request.body;
      await app.accountService.deleteAccount(requireAuth(request), password, confirmation);
      return { success: true as const, message: 'Account deleted' };
    },
  );

  app.get(
    '/events',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'The account audit, newest first',
        querystring: AccountEventsQuerySchema,
        response: { 200: AccountEventsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.accountAudit.list(callerId(request), request.query.limit),
      message: 'Account events',
    }),
  );

  app.get(
    '/settings',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Settings stored on the server (default risk limits of new bots)',
        response: { 200: AccountSettingsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.accountService.settings(callerId(request)),
      message: 'Settings',
    }),
  );

  app.put(
    '/settings',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Replace the settings stored on the server',
        body: AccountSettingsSchema,
        response: { 200: AccountSettingsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.accountService.updateSettings(requireAuth(request), clientInfo(request), request.body),
      message: 'Settings saved',
    }),
  );
};
export default routes;
