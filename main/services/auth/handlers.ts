import type { ContractHandlers } from '../../../common/ipc/dispatch';
import type { AuthService } from './auth';

type AuthCalls = 'auth.status' | 'auth.signInWithToken' | 'auth.signInWithPassword' | 'auth.signOut';

export function authHandlers(auth: AuthService): Pick<ContractHandlers, AuthCalls> {
  return {
    'auth.status': (req) => auth.status(req.profileId),
    'auth.signInWithToken': (req) => auth.signInWithToken(req.profileId, req.token),
    'auth.signInWithPassword': (req) =>
      auth.signInWithPassword(req.profileId, {
        appId: req.appId,
        taxCode: req.taxCode,
        userName: req.userName,
        password: req.password,
        rememberPassword: req.rememberPassword,
      }),
    'auth.signOut': (req) => auth.signOut(req.profileId),
  };
}
