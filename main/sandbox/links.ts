import { createRng } from './prng';
import type { Reply } from './reply';

interface Link {
  bytes: Uint8Array;
  expiresAt: number;
}

/** Short-lived preview and viewer links: `<origin>/preview/<key>.pdf`, `<origin>/viewer/<key>.pdf`. */
export class LinkStore {
  private readonly links = new Map<string, Link>();
  private readonly rng: () => number;
  private seq = 0;

  constructor(
    seed: number,
    private readonly ttlMs: number,
    private readonly now: () => Date,
    private readonly origin: () => string,
  ) {
    this.rng = createRng(`links:${seed}`);
  }

  add(kind: 'preview' | 'viewer', bytes: Uint8Array): string {
    const t = this.now().getTime();
    for (const [k, l] of this.links) if (l.expiresAt + this.ttlMs * 10 + 60_000 < t) this.links.delete(k);
    const key = `${(++this.seq).toString(36)}${Math.floor(this.rng() * 2 ** 32).toString(36)}`;
    this.links.set(key, { bytes, expiresAt: t + this.ttlMs });
    return `${this.origin()}/${kind}/${key}.pdf`;
  }

  /** GET of a link path: the PDF, 404 for an unknown link, 410 once it expired. */
  serve(path: string): Reply {
    const m = /^\/(preview|viewer)\/([a-z0-9]+)\.pdf$/i.exec(path);
    const link = m?.[2] ? this.links.get(m[2]) : undefined;
    if (!link) return { status: 404, body: 'Not Found', contentType: 'text/plain; charset=utf-8' };
    if (link.expiresAt <= this.now().getTime()) return { status: 410, body: 'Liên kết đã hết hạn (link expired)', contentType: 'text/plain; charset=utf-8' };
    return { status: 200, body: link.bytes, contentType: 'application/pdf', headers: { 'Cache-Control': 'no-store' } };
  }

  clear(): void {
    this.links.clear();
  }
}
