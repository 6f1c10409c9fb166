import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bridge } from '../bridge';
import { DraftsArea, showDraftList } from '../drafts/DraftsArea';
import { readQueueAhead } from '../emails/useEmailQueue';
import { LANGUAGES, setLanguage, type Language } from '../i18n';
import { AuthBanner } from '../settings/AuthBanner';
import { UpdateBanner } from '../updates/UpdateBanner';
import { Dialog } from './Dialog';
import { ErrorBoundary } from './ErrorBoundary';
import { SelectField } from './fields';
import type { LATER_AREAS } from './later-areas';
import { AREA_KEYS, AREAS, useAppStore, type Area } from './store';

/** The other areas' code (app/later-areas.ts), asked for as the app starts: it loads while the drafts show. */
let laterAreas: typeof LATER_AREAS | Error | undefined;
let laterAreasLoad = settle(import('./later-areas'));
let laterAreasTries = 0;
/** The chunk's file name, written in by the build (vite.config.ts). */
const LATER_AREAS_FILE = '__LATER_AREAS_FILE__';

function settle(load: Promise<{ LATER_AREAS: typeof LATER_AREAS }>) {
  return load.then(
    (m) => (laterAreas = m.LATER_AREAS),
    (error: unknown) => (laterAreas = error instanceof Error ? error : new Error(String(error))),
  );
}

/**
 * The code as far as it is in; code that failed to load is asked for again (a screen opened anew,
 * or "Reload the screen"), under a new address: a browser keeps a module load that failed.
 */
function laterAreasOrRetry(): typeof laterAreas {
  if (laterAreas instanceof Error) {
    laterAreas = undefined;
    laterAreasLoad = settle(import(/* @vite-ignore */ `./${LATER_AREAS_FILE}?try=${++laterAreasTries}`));
  }
  return laterAreas;
}

/** The open area's screen; a line in words while its code is still loading. */
function AreaView({ area }: { area: Area }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState(area === 'drafts' ? laterAreas : laterAreasOrRetry);
  useEffect(() => {
    if (loaded === undefined) void laterAreasLoad.then(setLoaded);
  }, [loaded]);
  if (area === 'drafts') return <DraftsArea />;
  // Code that failed to load is a screen that failed: the area's error boundary says so in words.
  if (loaded instanceof Error) throw loaded;
  const View = loaded?.[area];
  return View ? <View /> : <p role="status">{t('app.loading')}</p>;
}

/** Reads that may start on the click that opens an area; they resolve when their answer is in. */
const AREA_READ_AHEAD: Partial<Record<Area, () => Promise<unknown>>> = { emails: readQueueAhead };
/** How long the screen before stays while an area's first read (and, right after start, its code) is out: it then opens whole, in one render. */
const READ_AHEAD_WAIT_MS = 150;
let opening = 0;

/** Opens an area (from the side bar or Alt+1…7), starting its first read before it mounts; its code too if not in yet. */
function openArea(name: Area): void {
  const { area, setArea } = useAppStore.getState();
  const mine = ++opening;
  const read = name !== area ? AREA_READ_AHEAD[name]?.() : undefined;
  const ahead = laterAreas === undefined && name !== 'drafts' ? Promise.all([laterAreasLoad, read]) : read;
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

/** Asked when an area is opened while the one open holds unsaved edits: stay (the focus goes to its Save), or let them go. */
function LeaveDialog() {
  const leaving = useAppStore((s) => s.leaving);
  return leaving ? <LeaveAsk leaving={leaving} /> : null;
}

/** The Save of the first form with unsaved edits, or, while that Save waits for a field, the form's first empty field. */
function focusUnsaved() {
  const row = document.querySelector<HTMLElement>('[data-unsaved="true"]');
  const save = row?.querySelector<HTMLButtonElement>('button[type="submit"]:enabled');
  const empty = Array.from(row?.closest('form')?.querySelectorAll('input') ?? []).find((input) => input.value === '');
  (save ?? empty)?.focus();
}

function LeaveAsk({ leaving }: { leaving: Area }) {
  const { t } = useTranslation();
  const { area, stay, leaveUnsaved } = useAppStore();
  const stayRef = useRef<HTMLButtonElement>(null);
  // The dialog has opened (its own effect ran first): Enter stays.
  useEffect(() => stayRef.current?.focus(), []);
  const onStay = () => {
    stay();
    // After the dialog has gone (it hands the focus back first).
    requestAnimationFrame(focusUnsaved);
  };
  return (
    <Dialog title={t('app.unsaved.title')} closeLabel={t('app.close')} onClose={onStay} className="leave-dialog">
      <p>{t('app.unsaved.text', { area: t(`areas.${area}`) })}</p>
      <div className="dialog-buttons">
        <button ref={stayRef} type="button" className="primary" onClick={onStay}>
          {t('app.unsaved.stay')}
        </button>
        <button type="button" onClick={leaveUnsaved}>
          {t('app.unsaved.leave', { area: t(`areas.${leaving}`) })}
        </button>
      </div>
    </Dialog>
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

  // A screen opened from inside another (a banner's button) took the focus away with it: the new
  // screen's heading has it, so the keyboard goes on from the top of that screen.
  const heading = useRef<HTMLHeadingElement>(null);
  const shownArea = useRef(area);
  useEffect(() => {
    if (shownArea.current === area) return;
    shownArea.current = area;
    if (document.activeElement === null || document.activeElement === document.body) heading.current?.focus();
  }, [area]);

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
                    // Not when the move was held back (edits not saved where the person is).
                    if (name === 'drafts' && useAppStore.getState().area === 'drafts') void showDraftList();
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
        <h1 ref={heading} tabIndex={-1}>
          {t(`areas.${area}`)}
        </h1>
        <ErrorBoundary resetKey={area}>
          <AreaView key={area} area={area} />
        </ErrorBoundary>
      </main>
      <LeaveDialog />
    </div>
  );
}
