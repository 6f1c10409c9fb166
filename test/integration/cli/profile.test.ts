import { describe, expect, it } from 'vitest';
import { cliWorld } from '../../support/cli-process';

const world = cliWorld('einvoice-cli-profile-', { seed: 3, invoiceCount: 50 });
const run = world.run;

describe('einvoice profile', () => {
  it('add, use, login, a real call, list, show, remove — against the sandbox on 127.0.0.1', async () => {
    const add = await run(['profile', 'add', 'shop', '--base-url', world.sb.baseUrl, '--token-url', world.sb.tokenUrl, '--json']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.json).toMatchObject({
      profile: { name: 'shop', kind: 'custom', baseUrl: world.sb.baseUrl, tokenUrl: world.sb.tokenUrl, builtin: false, active: false },
    });
    const shopId = (add.json.profile as { id: string }).id;

    const use = await run(['profile', 'use', 'shop', '--json']);
    expect(use.code, use.stderr).toBe(0);
    expect(use.json).toMatchObject({ activeId: shopId, profile: { name: 'shop', active: true } });

    const login = await run(['login', '--profile', 'shop', '--token-stdin', '--json'], { stdin: `${world.sb.devToken}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.json).toMatchObject({ profile: { name: 'shop' }, status: { state: 'signedIn', method: 'token', storage: 'memory' } });
    expect(login.stdout + login.stderr).not.toContain(world.sb.devToken);

    // A real call on the active profile: its address, the token (no keychain here: from the environment).
    const before = world.sb.requests({ op: 'templates' }).length;
    const templates = await run(['templates', '--json'], { env: { EINVOICE_TOKEN: world.sb.devToken } });
    expect(templates.code, templates.stderr).toBe(0);
    expect((templates.json.templates as unknown[]).length).toBeGreaterThan(0);
    expect(world.sb.requests({ op: 'templates' }).length).toBe(before + 1);
    // Without a keychain the sign-in lasted one run: the next one says how to sign in.
    const signedOut = await run(['templates', '--profile', 'shop']);
    expect(signedOut.code).toBe(3);
    expect(signedOut.stderr).toContain('einvoice login --profile "shop"');

    const list = await run(['profile', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json.activeId).toBe(shopId);
    expect(list.json.profiles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'sandbox', name: 'Sandbox', builtin: true, active: false }),
        expect.objectContaining({ id: shopId, name: 'shop', active: true }),
      ]),
    );
    const text = await run(['profile', 'list']);
    expect(text.stdout).toMatch(/^\* shop\s+http:\/\/127\.0\.0\.1:\d+\//m);

    const show = await run(['profile', 'show', 'shop', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json).toMatchObject({ profile: { id: shopId, baseUrl: world.sb.baseUrl }, auth: { state: 'signedOut' } });

    const status = await run(['status', '--json']);
    expect(status.json).toMatchObject({ profile: { id: shopId, active: true }, online: true });

    const remove = await run(['profile', 'remove', 'shop', '--json']);
    expect(remove.code, remove.stderr).toBe(0);
    expect(remove.json).toMatchObject({ removed: { id: shopId, name: 'shop' }, activeId: 'sandbox' });
    expect((remove.json.profiles as Array<{ id: string }>).map((p) => p.id)).not.toContain(shopId);
    const back = await run(['profile', 'use', 'Sandbox']);
    expect(back.stdout).toContain('Đang dùng cấu hình "Sandbox".');
    expect(back.stdout).toContain('Now using the profile "Sandbox".');
  });

  it('the Settings rules: https unless this computer, unique names, the Sandbox stays — exit 2, plain words', async () => {
    const remote = await run(['profile', 'add', 'far', '--base-url', 'http://api.example.vn/api/integration/invoice', '--json']);
    expect(remote.code).toBe(2);
    expect(remote.json).toMatchObject({ error: { code: 'profile_url_invalid' } });
    expect(remote.stderr).toContain('https://');
    expect(remote.stderr).toContain('Địa chỉ dịch vụ');

    const fake = await run(['profile', 'add', 'fake', '--base-url', 'http://evil.localhost:8080/api/integration/invoice', '--json']);
    expect(fake.code).toBe(2);
    expect(fake.json).toMatchObject({ error: { code: 'profile_url_invalid' } });

    const first = await run(['profile', 'add', 'Counter 1', '--base-url', 'https://api.example.vn/api/integration/invoice']);
    expect(first.code, first.stderr).toBe(0);
    const dup = await run(['profile', 'add', 'counter 1', '--base-url', 'https://other.example.vn/api/integration/invoice', '--json']);
    expect(dup.code).toBe(2);
    expect(dup.json).toMatchObject({ error: { code: 'profile_name_taken' } });
    expect(dup.stderr).toContain('Đã có cấu hình tên');

    const sandbox = await run(['profile', 'remove', 'Sandbox', '--json']);
    expect(sandbox.code).toBe(2);
    expect(sandbox.json).toMatchObject({ error: { code: 'profile_builtin' } });
    expect(sandbox.stderr).toContain('Không thể xóa Sandbox');

    const unknown = await run(['profile', 'use', 'nope', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ error: { code: 'profile_not_found' } });
    expect((await run(['profile', 'fly'])).code).toBe(2);
    expect((await run(['profile', 'add', 'x'])).code).toBe(2);

    const names = ((await run(['profile', 'list', '--json'])).json.profiles as Array<{ name: string }>).map((p) => p.name);
    expect(names.filter((n) => n.toLowerCase() === 'counter 1')).toHaveLength(1);
    expect(names).not.toContain('far');
    expect(names).not.toContain('fake');
    expect(names).toContain('Sandbox');
  });
});
