import { beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CLI_BIN, cliEnv, cliWorld, type CliRun } from '../../support/cli-process';
import { sampleInvoiceData } from '../../support/sandbox-invoice';

const world = cliWorld('einvoice-cli-', { seed: 11, invoiceCount: 300 }, {});
const run = (args: string[], env: Record<string, string> = {}, timeoutMs?: number) => world.run(args, { env, ...(timeoutMs ? { timeoutMs } : {}) });

/** `--json` output must be exactly one JSON document. */
function oneJson(r: CliRun): Record<string, unknown> {
  const text = r.stdout.trim();
  expect(text.split('\n')).toHaveLength(1);
  return JSON.parse(text) as Record<string, unknown>;
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const api = () => ['--base-url', world.sb.baseUrl];
const tokenEnv = () => ({ EINVOICE_TOKEN: world.sb.devToken });

beforeEach(() => world.sb.reset());

describe('usage', () => {
  it('--help lists every command and the exit codes; exit 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['templates', 'preview', 'words', 'sandbox']) expect(r.stdout).toContain(`einvoice ${c}`);
    expect(r.stdout).toContain('3 authentication failed');
    const h = await run(['help', 'preview']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('--save OUT.pdf');
  });

  it('no command, an unknown command, an unknown option → exit 2 with a bilingual message', async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Chưa nhập lệnh');
    expect(none.stderr).toContain('No command given');
    const unknown = await run(['frobnicate', '--json']);
    expect(unknown.code).toBe(2);
    expect(oneJson(unknown)).toMatchObject({ error: { code: 'usage' } });
    const badOption = await run(['templates', '--bogus', ...api()], tokenEnv());
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain('--bogus');
    expect(world.sb.requests()).toHaveLength(0);
  });
});

describe('templates', () => {
  it('--json prints {"templates":[…as received…]} and nothing else on stdout', async () => {
    const r = await run(['templates', '--json', ...api()], tokenEnv());
    expect(r.code).toBe(0);
    const doc = oneJson(r);
    const year = new Date(Date.now() + 7 * 3600_000).getUTCFullYear();
    const expected = world.sb.catalogue
      .templates()
      .filter((t) => t.year === year && !t.withCode && !t.ticket)
      .map((t) => t.template);
    expect(doc).toEqual({ templates: JSON.parse(JSON.stringify(expected)) });
    expect(world.sb.requests({ op: 'templates' })[0]).toMatchObject({ auth: 'dev', query: { invoiceWithCode: 'false', ticket: 'false' } });
  });

  it('--with-code --ticket --year N reach the query; text mode lists the series', async () => {
    const year = new Date().getUTCFullYear() - 1;
    const r = await run([...api(), 'templates', '--with-code', '--ticket', '--year', String(year)], tokenEnv());
    expect(r.code).toBe(0);
    expect(world.sb.requests({ op: 'templates' })[0]!.query).toEqual({ invoiceWithCode: 'true', ticket: 'true', year: String(year) });
    const expected = world.sb.catalogue.templates().filter((t) => t.year === year && t.withCode && t.ticket);
    for (const t of expected) expect(r.stdout).toContain(String(t.template.InvSeries));
  });

  it('a bad --year is a usage error (exit 2)', async () => {
    const r = await run(['templates', '--year', 'abc', ...api()], tokenEnv());
    expect(r.code).toBe(2);
  });

  it('a wrong token → exit 3 with a plain message', async () => {
    const r = await run(['templates', '--json', ...api()], { EINVOICE_TOKEN: 'not-the-token' });
    expect(r.code).toBe(3);
    expect(oneJson(r)).toMatchObject({ error: { kind: 'auth', serviceCode: 'InvalidTokenCode' } });
    expect(r.stderr).toContain('Xác thực thất bại');
    expect(r.stderr).toContain('Authentication failed');
    expect(r.stderr).not.toContain('not-the-token');
  });

  it('an expired token → exit 3', async () => {
    const r = await run(['templates', ...api()], { EINVOICE_TOKEN: world.sb.issueToken({ ttlMs: -1000 }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('hết hạn');
  });

  it('an unreachable service (closed port on 127.0.0.1) → exit 4', async () => {
    const port = await closedPort();
    const r = await run(['templates', '--json', '--base-url', `http://127.0.0.1:${port}/api/integration/invoice`], tokenEnv());
    expect(r.code).toBe(4);
    expect(oneJson(r)).toMatchObject({ error: { kind: 'offline' } });
    expect(r.stderr).toContain('Không kết nối được');
  });

  it('maintenance (HTTP 503 HTML) → exit 4', async () => {
    world.sb.setQuirks({ maintenance: true });
    const r = await run(['templates', '--json', '--timeout', '5', ...api()], tokenEnv());
    expect(r.code).toBe(4);
    expect(oneJson(r)).toMatchObject({ error: { kind: 'unavailable', httpStatus: 503 } });
  });

  it('http:// to a remote host, no token, or no service → exit 2', async () => {
    const remote = await run(['templates', '--base-url', 'http://api.example.vn/api/integration/invoice'], tokenEnv());
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('https://');
    const noToken = await run(['templates', ...api()]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('EINVOICE_TOKEN');
    const noService = await run(['templates'], tokenEnv());
    expect(noService.code).toBe(2);
    expect(noService.stderr).toContain('--profile sandbox');
  });

  it('EINVOICE_BASE_URL works like --base-url', async () => {
    const r = await run(['templates', '--json'], { ...tokenEnv(), EINVOICE_BASE_URL: world.sb.baseUrl });
    expect(r.code).toBe(0);
    expect(Array.isArray(oneJson(r).templates)).toBe(true);
  });

  it('--profile sandbox starts an in-process sandbox with its dev token', async () => {
    const r = await run(['--profile', 'sandbox', 'templates', '--json']);
    expect(r.code).toBe(0);
    expect((oneJson(r).templates as unknown[]).length).toBeGreaterThan(0);
    expect(r.stderr).toContain('sandbox');
    const other = await run(['--profile', 'shop-1', 'templates']);
    expect(other.code).toBe(2);
  });
});

describe('preview', () => {
  it('FILE.json --save OUT.pdf → {"link","saved"} and a real PDF on disk', async () => {
    const file = path.join(world.tmp, 'invoice.json');
    fs.writeFileSync(file, JSON.stringify(sampleInvoiceData()));
    const r = await run(['preview', 'invoice.json', '--save', 'out/preview.pdf', '--json', ...api()], tokenEnv());
    expect(r.code).toBe(0);
    const doc = oneJson(r);
    expect(doc.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/preview\//);
    expect(doc.saved).toBe('out/preview.pdf');
    const pdf = fs.readFileSync(path.join(world.tmp, 'out', 'preview.pdf'));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(world.sb.requests({ op: 'link' })).toHaveLength(1);
  });

  it('without --save: the link only, saved null', async () => {
    fs.writeFileSync(path.join(world.tmp, 'inv2.json'), JSON.stringify(sampleInvoiceData()));
    const r = await run(['preview', 'inv2.json', '--json', ...api()], tokenEnv());
    expect(r.code).toBe(0);
    expect(oneJson(r)).toMatchObject({ saved: null });
    expect(world.sb.requests({ op: 'link' })).toHaveLength(0);
  });

  it('a missing file, broken JSON or an invalid InvoiceData → exit 2, nothing sent', async () => {
    expect((await run(['preview', 'nope.json', ...api()], tokenEnv())).code).toBe(2);
    fs.writeFileSync(path.join(world.tmp, 'broken.json'), '{"RefID": ');
    expect((await run(['preview', 'broken.json', ...api()], tokenEnv())).code).toBe(2);
    fs.writeFileSync(path.join(world.tmp, 'invalid.json'), JSON.stringify({ RefID: 'x' }));
    const invalid = await run(['preview', 'invalid.json', '--json', ...api()], tokenEnv());
    expect(invalid.code).toBe(2);
    expect(oneJson(invalid)).toMatchObject({ error: { code: 'validation' } });
    expect(world.sb.requests()).toHaveLength(0);
  });

  it('an invoice the service rejects → exit 1 with the code explained', async () => {
    fs.writeFileSync(path.join(world.tmp, 'rejected.json'), JSON.stringify({ ...sampleInvoiceData(), BuyerTaxCode: '0101234567', BuyerAddress: '' }));
    const r = await run(['preview', 'rejected.json', '--json', ...api()], tokenEnv());
    expect(r.code).toBe(1);
    expect(oneJson(r)).toMatchObject({ error: { kind: 'rejected', serviceCode: 'RequireError_BuyerAddress' } });
    expect(r.stderr).toContain('Thiếu trường bắt buộc: BuyerAddress');
  });
});

describe('words', () => {
  it.each([
    [['1230000'], 'Một triệu hai trăm ba mươi nghìn đồng'],
    [['-1000'], 'Âm một nghìn đồng'],
    [['12.05', '--currency', 'usd'], 'Mười hai đô la Mỹ năm xu'],
    [['105', '--le'], 'Một trăm lẻ năm đồng'],
    [['12.05', '--currency', 'USD', '--english'], 'Twelve US dollars and five cents'],
  ])('words %j', async (args, expected) => {
    const r = await run(['words', ...args]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(expected);
  });

  it('--json and a bad amount', async () => {
    const r = await run(['words', '500000', '--json', '--chan']);
    expect(oneJson(r)).toEqual({ amount: '500000', currency: 'VND', known: true, words: 'Năm trăm nghìn đồng chẵn' });
    expect((await run(['words', '12abc'])).code).toBe(2);
    expect((await run(['words'])).code).toBe(2);
  });
});

describe('sandbox command', () => {
  it('prints its base URL and dev token, serves with the given faults, stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'sandbox', '--port', '0', '--seed', '5', '--faults', 'templates:503=1', '--json'], {
      cwd: world.tmp,
      env: cliEnv({ EINVOICE_DATA_DIR: path.join(world.tmp, 'data') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    try {
      const info = await new Promise<{ baseUrl: string; devToken: string; tokenUrl: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner: ${stderr}`)), 30_000);
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d;
          if (stdout.includes('\n')) {
            clearTimeout(timer);
            resolve(JSON.parse(stdout.trim()) as { baseUrl: string; devToken: string; tokenUrl: string });
          }
        });
      });
      expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/integration\/invoice$/);
      expect(info.tokenUrl).toMatch(/\/api\/integration\/auth\/token$/);
      expect(info.devToken).toBeTruthy();
      const r = await run(['templates', '--json', '--base-url', info.baseUrl, '--timeout', '5'], { EINVOICE_TOKEN: info.devToken });
      expect(r.code).toBe(4);
      expect(oneJson(r)).toMatchObject({ error: { kind: 'unavailable' } });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout.trim().split('\n')).toHaveLength(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('a bad --faults spec or --port → exit 2', async () => {
    expect((await run(['sandbox', '--faults', 'download:explode=1'])).code).toBe(2);
    expect((await run(['sandbox', '--port', '99999'])).code).toBe(2);
    const busy = await run(['sandbox', '--port', new URL(world.sb.baseUrl).port, '--json']);
    expect(busy.code).toBe(2);
    expect(oneJson(busy)).toMatchObject({ error: { code: 'usage' } });
  });
});
