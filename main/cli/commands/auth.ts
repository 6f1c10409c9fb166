import type { AuthStatus } from '../../../common/calls/auth';
import type { Services } from '../../services';
import type { Profile } from '../../services/profiles';
import { flag, text } from '../options';
import { UsageError, type CliCommand, type CommandContext, type CommandResult } from '../registry';

/** `login`, `logout`, `status`: the same profiles, keychain and database as the app. */

async function openAccounts(ctx: CommandContext): Promise<{ conn: Services; profile: Profile }> {
  if (ctx.globals.baseUrl !== undefined) {
    throw new UsageError({
      en: 'login/logout/status work on connection profiles: use --profile NAME, not --base-url.',
      vi: 'login/logout/status làm việc với cấu hình kết nối: dùng --profile TÊN, không dùng --base-url.',
    });
  }
  const { services, profile } = await ctx.services({ profilesOnly: true });
  return { conn: services, profile };
}

async function readStdin(ctx: CommandContext, what: string): Promise<string> {
  const stdin = (ctx.io as { stdin?: NodeJS.ReadableStream }).stdin ?? process.stdin;
  if ((stdin as { isTTY?: boolean }).isTTY)
    ctx.progress({ en: `Type the ${what}, then press Ctrl-D:`, vi: `Nhập ${what === 'token' ? 'token' : 'mật khẩu'}, rồi nhấn Ctrl-D:` });
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  // Only the line break a pipe or `echo` adds is dropped; a password may contain other spaces.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function describeStatus(profile: Profile, status: AuthStatus): string {
  const head = `${profile.name}${profile.kind === 'sandbox' ? ' (SANDBOX)' : ''}`;
  const storage = status.storage === 'memory' ? '\nKhông có kho khóa: token chỉ giữ trong lần chạy này / No keychain: the token is kept for this run only' : '';
  switch (status.state) {
    case 'signedIn': {
      if (status.method === 'sandbox') return `${head}: đã đăng nhập tự động (sandbox) / signed in automatically (sandbox)${storage}`;
      const expiry =
        status.daysLeft === null
          ? 'không rõ hạn / no expiry in the token'
          : `hết hạn sau ${status.daysLeft} ngày / expires in ${status.daysLeft} day(s)${status.expiringSoon ? ' — sắp hết hạn, hãy đăng nhập lại / expiring soon, sign in again' : ''}`;
      return `${head}: đã đăng nhập / signed in — ${expiry}${storage}`;
    }
    case 'expired':
      return `${head}: token đã hết hạn / the token has expired — einvoice login${storage}`;
    case 'paused':
      return `${head}: dịch vụ từ chối token / the service refused the token — einvoice login${storage}`;
    default:
      return `${head}: chưa đăng nhập / signed out${storage}`;
  }
}

const profileJson = (p: Profile) => ({ id: p.id, name: p.name, kind: p.kind, baseUrl: p.baseUrl, active: p.active });

/** What `login` and `logout` print: the profile and its sign-in state. */
function statusResult(profile: Profile, status: AuthStatus): CommandResult {
  return { json: { profile: profileJson(profile), status }, text: describeStatus(profile, status) };
}

export const loginCommand: CliCommand = {
  name: 'login',
  summary: {
    en: 'Sign in to a connection profile (token saved in the OS keychain)',
    vi: 'Đăng nhập một cấu hình kết nối (token lưu trong kho khóa của hệ thống)',
  },
  synopsis: '[--profile NAME] (--token-stdin | --appid ID --taxcode MST --username USER --password-stdin [--remember-password])',
  options: {
    'token-stdin': flag('read the access token from standard input'),
    appid: text('ID', 'app id for the token operation'),
    taxcode: text('MST', 'the seller’s tax code'),
    username: text('USER', 'user name'),
    'password-stdin': flag('read the password from standard input'),
    'remember-password': flag('also keep the password in the keychain to renew the token'),
  },
  async run(ctx, { values }) {
    const withToken = values['token-stdin'] === true;
    const withPassword = values['password-stdin'] === true || values.appid !== undefined || values.taxcode !== undefined || values.username !== undefined;
    if (withToken === withPassword) {
      throw new UsageError(
        {
          en: 'Give either --token-stdin, or --appid, --taxcode, --username and --password-stdin.',
          vi: 'Dùng --token-stdin, hoặc --appid, --taxcode, --username và --password-stdin.',
        },
        'login',
      );
    }
    if (withPassword) {
      const missing = ['appid', 'taxcode', 'username'].filter((k) => typeof values[k] !== 'string' || !(values[k] as string).trim());
      if (values['password-stdin'] !== true) missing.push('password-stdin');
      if (missing.length) {
        throw new UsageError(
          { en: `Missing: ${missing.map((m) => `--${m}`).join(', ')}.`, vi: `Còn thiếu: ${missing.map((m) => `--${m}`).join(', ')}.` },
          'login',
        );
      }
    }
    const secret = await readStdin(ctx, withToken ? 'token' : 'password');
    if (!secret.trim()) {
      throw new UsageError(
        { en: `Nothing was read from standard input (the ${withToken ? 'token' : 'password'}).`, vi: 'Không đọc được gì từ đầu vào chuẩn (stdin).' },
        'login',
      );
    }
    const { conn, profile } = await openAccounts(ctx);
    if (conn.secrets.unavailable) ctx.progress({ en: conn.secrets.unavailable.message, vi: conn.secrets.unavailable.messageVi });
    const status = withToken
      ? await conn.auth.signInWithToken(profile.id, secret.trim())
      : await conn.auth.signInWithPassword(
          profile.id,
          {
            appId: String(values.appid).trim(),
            taxCode: String(values.taxcode).trim(),
            userName: String(values.username).trim(),
            password: secret,
            rememberPassword: values['remember-password'] === true,
          },
          ctx.signal,
        );
    return statusResult(profile, status);
  },
};

export const logoutCommand: CliCommand = {
  name: 'logout',
  summary: { en: 'Sign out of a connection profile (removes its token from the keychain)', vi: 'Đăng xuất một cấu hình kết nối (xóa token khỏi kho khóa)' },
  synopsis: '[--profile NAME]',
  async run(ctx) {
    const { conn, profile } = await openAccounts(ctx);
    return statusResult(profile, await conn.auth.signOut(profile.id));
  },
};

export const statusCommand: CliCommand = {
  name: 'status',
  summary: {
    en: 'Show the active profile, its sign-in state and whether its service is reachable',
    vi: 'Xem cấu hình đang dùng, trạng thái đăng nhập và dịch vụ có kết nối được không',
  },
  synopsis: '[--profile NAME] [--json]',
  async run(ctx) {
    const { conn, profile } = await openAccounts(ctx);
    const status = await conn.auth.status(profile.id);
    let online: boolean;
    if (profile.active) {
      online = await conn.connectivity.check();
      conn.connectivity.stop();
    } else {
      online = await conn
        .resolveEndpoint(profile)
        .then(async (endpoint) => {
          const client = conn.clients.forTarget(endpoint, 'probe');
          try {
            return await client.probe(AbortSignal.timeout(5_000));
          } finally {
            await client.close();
          }
        })
        .catch(() => false);
    }
    const text = [
      describeStatus(profile, status),
      online ? 'Dịch vụ: kết nối được / Service: reachable' : 'Dịch vụ: không kết nối được / Service: unreachable',
      `Dữ liệu / Data: ${conn.store.path}`,
    ].join('\n');
    return {
      json: { profile: profileJson(profile), auth: status, online, dataDir: ctx.globals.dataDir, profiles: conn.profiles.list().map(profileJson) },
      text,
    };
  },
};
