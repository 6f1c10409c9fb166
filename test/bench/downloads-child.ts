/**
 * One arm of the downloads benchmark, run in its own process so its peak memory (maxRSS) is
 * its own: `node child.cjs engine|baseline CONFIG.json` → prints one JSON line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from 'undici';
import { ApiClient } from '../../main/services/api';
import { DownloadsService } from '../../main/services/downloads';
import { ProfileService } from '../../main/services/profiles';
import { openDatabase } from '../../main/services/store';

interface Config {
  baseUrl: string;
  token: string;
  ids: string[];
  out: string;
  dataDir: string;
  batch: number;
  concurrency: number;
}

const agentOptions = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 16 } as const;

async function engine(c: Config): Promise<number> {
  const store = openDatabase(c.dataDir);
  const profileId = new ProfileService(store).activeId();
  const dispatcher = new Agent(agentOptions);
  const client = new ApiClient({ baseUrl: c.baseUrl, token: c.token, dispatcher, timeoutMs: 120_000 });
  const service = new DownloadsService({
    store,
    activeProfileId: () => profileId,
    session: async () => ({ profileId, client }),
    engine: { concurrency: c.concurrency, batchSize: c.batch, ...(process.env.BENCH_NO_FSYNC ? { durable: false } : {}) },
  });
  const { job } = await service.create({ ids: c.ids, type: 'Pdf', kind: 'withCode', folder: c.out });
  service.start(job.id);
  const view = await service.whenDone(job.id);
  if (view.saved !== c.ids.length) throw new Error(`engine saved ${view.saved}/${c.ids.length}`);
  await service.close();
  await dispatcher.close();
  store.close();
  return view.bytes;
}

/** Plain undici: same batches and concurrency, envelope + JSON-in-string parsed, base64 decoded, files written. */
async function baseline(c: Config): Promise<number> {
  const agent = new Agent(agentOptions);
  const url = new URL(c.baseUrl);
  const pathAndQuery = `${url.pathname.replace(/\/+$/, '')}/Download?invoiceWithCode=true&invoiceCalcu=false&downloadDataType=Pdf`;
  fs.mkdirSync(c.out, { recursive: true });
  const batches: string[][] = [];
  for (let i = 0; i < c.ids.length; i += c.batch) batches.push(c.ids.slice(i, i + c.batch));
  let bytes = 0;
  const worker = async () => {
    for (let b = batches.shift(); b; b = batches.shift()) {
      const res = await agent.request({
        origin: url.origin,
        path: pathAndQuery,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${c.token}` },
        body: JSON.stringify(b),
      });
      const env = JSON.parse(await res.body.text()) as { data: unknown };
      const items = (typeof env.data === 'string' ? JSON.parse(env.data) : env.data) as Array<{ TransactionID: string; data: string }>;
      for (const it of items) {
        const buf = Buffer.from(it.data, 'base64');
        await fs.promises.writeFile(path.join(c.out, `${it.TransactionID}.pdf`), buf);
        bytes += buf.length;
      }
    }
  };
  await Promise.all(Array.from({ length: c.concurrency }, worker));
  await agent.close();
  return bytes;
}

async function main(): Promise<void> {
  const [mode, file] = process.argv.slice(2);
  const config = JSON.parse(fs.readFileSync(file!, 'utf8')) as Config;
  const t0 = performance.now();
  const bytes = mode === 'engine' ? await engine(config) : await baseline(config);
  const ms = performance.now() - t0;
  const files = fs.readdirSync(config.out).length;
  process.stdout.write(`${JSON.stringify({ mode, ms, bytes, files, maxRssKb: process.resourceUsage().maxRSS })}\n`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
