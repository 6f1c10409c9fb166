import { useTranslation } from 'react-i18next';
import type { SandboxSampleGroup, SandboxSamples } from '../../../common/calls/sandbox';
import { useAppStore } from './store';
import { useLive } from './useLive';

/** Whether the active connection is the built-in Sandbox. */
export function useSandboxMode(): boolean {
  return useAppStore((s) => s.info?.connectionKind === 'sandbox');
}

/** The Sandbox's address, sample sign-in and sample invoices (render only in Sandbox mode). */
export function useSandboxSamples(): SandboxSamples | undefined {
  return useLive('sandbox.samples', {}, { 'profiles.changed': 'reload' }).data;
}

/** "Use sample invoices": one button per kind; picking one hands its real TransactionIDs over. */
export function SampleInvoices({ onPick }: { onPick: (group: SandboxSampleGroup) => void }) {
  const { t } = useTranslation();
  const samples = useSandboxSamples();
  if (!samples) return null;
  return (
    <div role="group" aria-label={t('app.samples.label')} className="samples">
      <span>{t('app.samples.label')}:</span>
      {samples.groups.map((g) => (
        <button key={g.kind} type="button" onClick={() => onPick(g)}>
          {t(`app.samples.${g.kind}`)}
        </button>
      ))}
    </div>
  );
}
