import { AppError } from '../../../common/errors';
import type { Endpoint, ResolveEndpoint } from '../auth';
import type { Profile } from './profiles';
import type { SandboxRunner } from './sandbox-runner';

/** Where a profile's service is: the built-in sandbox once it runs, otherwise the profile's addresses. */
export function endpointResolver(sandbox: SandboxRunner): ResolveEndpoint {
  return async (profile: Profile): Promise<Endpoint> => {
    if (profile.kind === 'sandbox') {
      const handle = await sandbox.get();
      return { baseUrl: handle.baseUrl, tokenUrl: handle.tokenUrl, devToken: handle.devToken };
    }
    if (!profile.baseUrl) {
      throw new AppError('profile_incomplete', {
        en: `The profile "${profile.name}" has no service address.`,
        vi: `Cấu hình "${profile.name}" chưa có địa chỉ dịch vụ.`,
      });
    }
    return { baseUrl: profile.baseUrl, tokenUrl: profile.tokenUrl };
  };
}
