import { memo, useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { bridge } from '../bridge';
import { DownloadsArea } from '../downloads/DownloadsArea';
import { DraftsArea, showDraftList } from '../drafts/DraftsArea';
import { EmailsArea } from '../emails/EmailsArea';
import { readQueueAhead } from '../emails/useEmailQueue';
import { IssuedArea } from '../issued/IssuedArea';
import { IssuingArea } from '../issuing/IssuingArea';
import { LANGUAGES, setLanguage, type Language } from '../i18n';
import { AuthBanner } from '../settings/AuthBanner';
import { SettingsArea } from '../settings/SettingsArea';
import { TemplatesArea } from '../templates/TemplatesArea';
import { UpdateBanner } from '../updates/UpdateBanner';
import { ErrorBoundary } from './ErrorBoundary';
import { SelectField } from './fields';
import { AREA_KEYS, AREAS, useAppStore, type Area } from './store';

const AREA_VIEWS: Record<Area, ComponentType> = {
  drafts: DraftsArea,
  issuing: IssuingArea,
  issued: IssuedArea,
  downloads: DownloadsArea,
  emails: EmailsArea,
  templates: TemplatesArea,
  settings: SettingsArea,
};

/** Reads that may start on the click that opens an area; they resolve when their answer is in. */
const AREA_READ_AHEAD: Partial<Record<Area, () => Promise<unknown>>> = { emails: readQueueAhead };
/** How long the screen before stays while an area's first read is out: it then opens whole, in one render. */
const READ_AHEAD_WAIT_MS = 150;
let opening = 0;

/** Opens an area (from the side bar or Alt+1…7), starting its first read before it mounts. */
function openArea(name: Area): void {
  const { area, setArea } = useAppStore.getState();
  const mine = ++opening;
  const ahead = name !== area ? AREA_READ_AHEAD[name]?.() : undefined;
  if (!ahead) return setArea(name);
  let done = false;
  // Once, and not if another area was opened meanwhile (another click, a banner's link).
  const open = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (mine === opening && useAppStore.getState().area === area) setArea(name);
  };
  const timer = setTimeout(open, READ_AHEAD_WAIT_MS);
  void ahead.then(open);
}

/** The foot of the side bar: the same whichever area is open, so opening one does not draw it again. */
const SidebarFoot = memo(function SidebarFoot({ version }: { version: string | undefined }) {
  const { t } = useTranslation();
  return (
    <div className="sidebar-foot">
      <OnlineIndicator />
      <AuthBanner />
      <UpdateBanner />
      <LanguageSwitch />
      {version !== undefined && <p className="version">{t('app.version', { version })}</p>}
    </div>
  );
});

function OnlineIndicator() {
  const { t } = useTranslation();
  const online = useAppStore((s) => s.online);
  if (online === undefined) return null;
  return (
    <p role="status" className={online ? 'status status-online' : 'status status-offline'}>
      <span aria-hidden="true" className="dot" />
      {online ? t('app.online') : t('app.offline')}
    </p>
  );
}

function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SelectField
      className="language"
      label={t('app.language')}
      value={i18n.language as Language}
      onChange={(l) => void setLanguage(l)}
      options={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
    />
  );
}

export function App() {
  const { t } = useTranslation();
  const { area, info, setInfo, setOnline } = useAppStore();

  useEffect(() => {
    bridge.call('app.info', {}).then(setInfo, () => setOnline(false));
    return bridge.on('app.online', (event) => setOnline(event.online));
  }, [setInfo, setOnline]);

  // Alt+1…7 jump between areas from anywhere, for the keyboard at the counter.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const target = AREAS.find((a) => String(AREA_KEYS[a]) === event.key);
      if (target) {
        event.preventDefault();
        openArea(target);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const View = AREA_VIEWS[area];
  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        {t('app.skipToContent')}
      </a>
      <aside className="sidebar">
        <p className="brand">{t('app.name')}</p>
        {info?.connectionKind === 'sandbox' && <p className="badge-sandbox">{t('app.sandbox')}</p>}
        <nav aria-label={t('app.nav')}>
          <ul>
            {AREAS.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  aria-current={area === name ? 'page' : undefined}
                  aria-keyshortcuts={`Alt+${AREA_KEYS[name]}`}
                  onClick={() => {
                    openArea(name);
                    if (name === 'drafts') void showDraftList();
                  }}
                >
                  {t(`areas.${name}`)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <SidebarFoot version={info?.version} />
      </aside>
      <main id="content" tabIndex={-1}>
        <h1>{t(`areas.${area}`)}</h1>
        <ErrorBoundary resetKey={area}>
          <View />
        </ErrorBoundary>
      </main>
    </div>
  );
}
