import type { ClientFactory } from '../api';
import type { RequestToken } from './auth';

/** The token operation through a short-lived client for the profile's token address. */
export function tokenRequester(clients: ClientFactory): RequestToken {
  return async (req) => {
    const client = clients.forTarget({ baseUrl: req.endpoint.baseUrl, tokenUrl: req.endpoint.tokenUrl }, 'token');
    try {
      const result = await client.requestToken(
        { appid: req.appId, taxcode: req.taxCode, username: req.userName, password: req.password },
        { ...(req.signal ? { signal: req.signal } : {}), companyTaxCode: req.taxCode },
      );
      return result.token;
    } finally {
      await client.close();
    }
  };
}
