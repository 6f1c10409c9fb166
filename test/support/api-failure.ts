import { ApiError } from '../../main/services/api';

/** The ApiError a call fails with; any other ending (success, another error) fails the test. */
export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}
