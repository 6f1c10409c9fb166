import type { CallName, CallResponse } from '../../../common/contract';
import { AppError } from '../../../common/errors';
import type { Services } from '../../services';
import type { Profile } from '../../services/profiles';
import { parseAction } from '../options';
import { findProfile } from '../services';
import { UsageError, type Bilingual, type CliCommand, type CommandContext } from '../registry';

/**
 * `einvoice profile list | show [NAME] | add NAME --base-url URL [--token-url URL] | use NAME |
 * remove NAME`: the connection profiles of the Settings screen, through the same contract calls
 * (so the same rules: https unless this computer, unique names, the Sandbox stays).
 */

const ACTIONS = ['list', 'show', 'add', 'use', 'remove'] as const;
type Action = (typeof ACTIONS)[number];

export const profileJson = (p: Profile) => ({
  id: p.id,
  name: p.name,
  kind: p.kind,
  baseUrl: p.baseUrl,
  tokenUrl: p.tokenUrl,
  builtin: p.builtin,
  active: p.active,
});

/** Runs a contract call as the Settings screen does; a refusal becomes the same error. */
async function call<N extends CallName>(services: Services, name: N, request: unknown): Promise<CallResponse<N>> {
  const result = await services.dispatch(name, request, { host: 'cli' });
  if (!result.ok) {
    const { code, message, messageVi, issues } = result.error;
    throw new AppError(code, { en: message, vi: messageVi }, issues ? { issues } : {});
  }
  return result.value as CallResponse<N>;
}

function where(p: Profile): string {
  return p.kind === 'sandbox' ? 'sandbox trên máy này / the sandbox on this computer' : (p.baseUrl ?? '');
}

function listText(profiles: Profile[]): string {
  const width = Math.max(...profiles.map((p) => p.name.length), 4);
  return profiles.map((p) => `${p.active ? '*' : ' '} ${p.name.padEnd(width)}  ${where(p)}`).join('\n');
}

function lines(...messages: Bilingual[]): string {
  return messages.map((m) => `${m.vi}\n${m.en}`).join('\n');
}

function needName(positionals: string[], action: Action): string {
  const name = positionals[1];
  if (name === undefined || !name.trim()) {
    throw new UsageError({ en: `profile ${action} needs a profile NAME.`, vi: `profile ${action} cần TÊN cấu hình.` }, 'profile');
  }
  return name;
}

async function open(ctx: CommandContext): Promise<Services> {
  return (await ctx.services({ profilesOnly: true })).services;
}

export const profileCommand: CliCommand = {
  name: 'profile',
  summary: {
    en: 'List, show, add, switch or remove connection profiles (as in Settings)',
    vi: 'Xem, thêm, chuyển hoặc xóa cấu hình kết nối (như trong Cài đặt)',
  },
  synopsis: 'list | show [NAME] | add NAME --base-url URL [--token-url URL] | use NAME | remove NAME',
  options: {
    'token-url': { type: 'string', arg: 'URL', help: 'with add: the token address (default: derived from the base URL)' },
  },
  positionals: { min: 1, max: 2 },
  async run(ctx, { values, positionals }) {
    const action = parseAction(positionals, ACTIONS, 'profile');
    if (action !== 'add' && ctx.globals.baseUrl !== undefined) {
      throw new UsageError({ en: '--base-url goes with profile add only.', vi: '--base-url chỉ dùng với profile add.' }, 'profile');
    }
    if (action === 'add') {
      const name = needName(positionals, action);
      const baseUrl = ctx.globals.baseUrl;
      if (baseUrl === undefined) throw new UsageError({ en: 'profile add needs --base-url URL.', vi: 'profile add cần --base-url ĐỊA_CHỈ.' }, 'profile');
      const tokenUrl = typeof values['token-url'] === 'string' ? values['token-url'] : undefined;
      const services = (await ctx.services({ profilesOnly: true })).services;
      const added = await call(services, 'profiles.add', { name, kind: 'custom', baseUrl, ...(tokenUrl !== undefined ? { tokenUrl } : {}) });
      const profile = services.profiles.get(added.id);
      return {
        json: { profile: profileJson(profile) },
        text: lines(
          { vi: `Đã thêm cấu hình "${profile.name}" (${profile.baseUrl}).`, en: `Added the profile "${profile.name}" (${profile.baseUrl}).` },
          {
            vi: `Dùng nó: einvoice profile use "${profile.name}", rồi einvoice login --profile "${profile.name}".`,
            en: `Use it: einvoice profile use "${profile.name}", then einvoice login --profile "${profile.name}".`,
          },
        ),
      };
    }

    const services = await open(ctx);
    if (action === 'list') {
      const { activeId } = await call(services, 'profiles.list', {});
      const profiles = services.profiles.list();
      return { json: { profiles: profiles.map(profileJson), activeId }, text: listText(profiles) };
    }
    if (action === 'show') {
      const name = positionals[1] ?? ctx.globals.profile;
      const profile = name !== undefined ? findProfile(services.profiles, name) : services.profiles.active();
      const auth = await services.auth.status(profile.id);
      const text = [
        `${profile.name}${profile.active ? ' (đang dùng / active)' : ''}`,
        `  Địa chỉ / Address: ${where(profile)}`,
        ...(profile.tokenUrl ? [`  Token URL: ${profile.tokenUrl}`] : []),
        `  Đăng nhập / Sign-in: ${auth.state}`,
      ].join('\n');
      return { json: { profile: profileJson(profile), auth }, text };
    }
    const profile = findProfile(services.profiles, needName(positionals, action));
    if (action === 'use') {
      const { activeId } = await call(services, 'profiles.activate', { id: profile.id });
      const active = services.profiles.get(activeId);
      return {
        json: { profile: profileJson(active), activeId },
        text: lines({ vi: `Đang dùng cấu hình "${active.name}".`, en: `Now using the profile "${active.name}".` }),
      };
    }
    const { activeId } = await call(services, 'profiles.remove', { id: profile.id });
    const profiles = services.profiles.list();
    return {
      json: { removed: { id: profile.id, name: profile.name }, profiles: profiles.map(profileJson), activeId },
      text: lines({
        vi: `Đã xóa cấu hình "${profile.name}" (và token của nó). Đang dùng: ${services.profiles.get(activeId).name}.`,
        en: `Removed the profile "${profile.name}" (and its token). Now using: ${services.profiles.get(activeId).name}.`,
      }),
    };
  },
};
