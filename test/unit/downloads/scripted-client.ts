import type { DownloadOptions } from '../../../main/services/api';
import type { DownloadResult } from '../../../main/services/api/normalise';
import type { DownloadClient } from '../../../main/services/downloads';

/**
 * Odd answers a deployment could give, fed through the engine's client interface (the HTTP
 * side is covered against the sandbox in test/integration/downloads/).
 */
export class ScriptedClient implements DownloadClient {
  calls: string[][] = [];
  constructor(private readonly answer: (ids: readonly string[]) => DownloadResult) {}
  async download(ids: readonly string[], _opts?: DownloadOptions): Promise<DownloadResult> {
    this.calls.push([...ids]);
    return this.answer(ids);
  }
  async fetchBytes(link: string) {
    return { bytes: new TextEncoder().encode(`fetched ${link}`), contentType: 'application/pdf' };
  }
}
