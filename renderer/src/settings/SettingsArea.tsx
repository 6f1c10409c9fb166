import { useEffect } from 'react';
import { useLive } from '../app/useLive';
import { bridge } from '../bridge';
import { IssuingSection } from './IssuingSection';
import { MaintenanceSection } from './MaintenanceSection';
import { PreferencesSection } from './PreferencesSection';
import { ProfilesSection } from './ProfilesSection';
import { SignInSection } from './SignInSection';
import { refreshAppInfo } from './app-info';

/** Settings: connection profiles, sign-in, issuing, preferences, maintenance. */
export function SettingsArea() {
  const auth = useLive(
    'auth.status',
    {},
    { 'auth.changed': (status, current) => (current === undefined || current.profileId === status.profileId ? status : current) },
  );
  const profiles = useLive('profiles.list', {}, { 'profiles.changed': (list) => list });
  const reloadAuth = auth.reload;
  useEffect(
    () =>
      bridge.on('profiles.changed', () => {
        void reloadAuth();
        void refreshAppInfo();
      }),
    [reloadAuth],
  );
  const list = profiles.data?.profiles ?? [];
  const active = list.find((p) => p.active);
  return (
    <div className="settings">
      <ProfilesSection profiles={list} onChanged={async () => void (await profiles.reload())} />
      {/* Keyed by profile: nothing typed for one profile is sent to another. */}
      {active && <SignInSection key={active.id} profile={active} status={auth.data} onStatus={(s) => auth.set(() => s)} />}
      <IssuingSection />
      <PreferencesSection />
      <MaintenanceSection />
    </div>
  );
}
