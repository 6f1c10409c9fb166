import type { ProfileService } from '../profiles';
import type { AuthService, ResolveEndpoint, SignedInSession } from './auth';

/**
 * Whose work it is and how it reaches the service: the email queue and download jobs belong to
 * `profileId()`, wait in `gate.ready()` for a session and report a refused sign-in to the gate;
 * interactive calls take `current()` (now, or null: "sign in first").
 */
export interface WorkSession {
  profileId(): string;
  gate: {
    ready(signal?: AbortSignal): Promise<SignedInSession>;
    reportAuthFailure(profileId?: string): Promise<void>;
  };
  current(): Promise<SignedInSession | null>;
}

export interface WorkSessionParts {
  auth: AuthService;
  profiles: ProfileService;
  resolveEndpoint: ResolveEndpoint;
}

/** The app's: the active profile, through the sign-in gate (work waits while signed out). */
export function activeWorkSession({ auth, profiles }: WorkSessionParts): WorkSession {
  return {
    profileId: () => profiles.activeId(),
    gate: auth.gate,
    current: () => auth.sessionIfReady(),
  };
}
