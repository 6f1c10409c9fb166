export { ProfileService, SANDBOX_PROFILE_ID, type Profile, type ProfileInput, type ProfilePatch, type ProfileKind } from './profiles';
export { PRESETS, checkServiceUrl, isLoopbackHost } from './urls';
