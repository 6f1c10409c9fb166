import { useEffect, useState } from 'react';
import type { Settings } from '../../../common/calls/settings';
import { useEdits } from '../app/store';
import { useLive } from '../app/useLive';

/**
 * A settings section's form: it starts from the stored settings and follows them (another section
 * saved) until the person edits it; edits not saved are declared, so leaving Settings asks first.
 */
export function useSettingsForm<F extends object>(key: string, toForm: (settings: Settings) => F) {
  const live = useLive('settings.get', {}, { 'settings.changed': (next) => next });
  const [form, setForm] = useState<F | null>(null);
  const { edited, edit, clear } = useEdits(key);
  useEffect(() => {
    // toForm is a pure mapping of the stored settings: they decide, not its identity.
    if (live.data && !edited) setForm(toForm(live.data));
  }, [live.data, edited]);
  return {
    /** The settings as stored (what the other sections show, e.g. the download folder). */
    stored: live.data,
    form,
    edited,
    patch: edit((p: Partial<F>) => setForm((current) => (current ? { ...current, ...p } : current))),
    /** After a save: the stored settings as saved, the form back in step with them. */
    saved: (settings: Settings) => {
      live.set(() => settings);
      setForm(toForm(settings));
      clear();
    },
  };
}
