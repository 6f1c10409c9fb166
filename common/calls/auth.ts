import { z } from 'zod';
import { call } from './define';
import { BilingualSchema } from '../model/text';

/**
 * Sign-in state of one profile. The token itself never crosses to the renderer: no call
 * returns it, no event carries it.
 */
export const AuthStatusSchema = z.object({
  profileId: z.string(),
  /** signedOut: no token; expired: the token's `exp` has passed; paused: the service refused it mid-work. */
  state: z.enum(['signedIn', 'signedOut', 'expired', 'paused']),
  method: z.enum(['token', 'credentials', 'sandbox']).nullable(),
  signedInAt: z.string().nullable(),
  /** From the JWT's `exp` when it has one. */
  expiresAt: z.string().nullable(),
  daysLeft: z.number().int().nullable(),
  /** True from two days before expiry. */
  expiringSoon: z.boolean(),
  /** keychain: saved in the OS keychain; memory: kept for this run only (no keychain available). */
  storage: z.enum(['keychain', 'memory']),
  /** The plain reason when storage is memory. */
  storageMessage: BilingualSchema.nullable(),
  passwordRemembered: z.boolean(),
  /** The non-secret fields last used with the token operation, to prefill the form. */
  appId: z.string().nullable(),
  taxCode: z.string().nullable(),
  userName: z.string().nullable(),
});
export type AuthStatus = z.infer<typeof AuthStatusSchema>;

const profileRef = { profileId: z.string().min(1).optional() };

export const authCalls = {
  'auth.status': call(z.object(profileRef).strict(), AuthStatusSchema),
  'auth.signInWithToken': call(z.object({ ...profileRef, token: z.string().trim().min(1).max(16_384) }).strict(), AuthStatusSchema),
  'auth.signInWithPassword': call(
    z
      .object({
        ...profileRef,
        appId: z.string().trim().min(1).max(200),
        taxCode: z.string().trim().min(1).max(20),
        userName: z.string().trim().min(1).max(200),
        password: z.string().min(1).max(1000),
        /** Keep the password in the keychain to renew the token later (off unless asked). */
        rememberPassword: z.boolean().default(false),
      })
      .strict(),
    AuthStatusSchema,
  ),
  'auth.signOut': call(z.object(profileRef).strict(), AuthStatusSchema),
} as const;

export const authEvents = {
  /** Any change of a profile's sign-in state; `paused` asks the user to sign in again. */
  'auth.changed': AuthStatusSchema,
} as const;
