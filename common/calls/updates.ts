import { z } from 'zod';
import { call, noInput } from './define';
import { BilingualSchema } from '../model/text';

/** Something that holds the installation of an update back (an unsaved draft, a flushing queue…). */
export const WorkReasonSchema = z.object({
  /** Which service or screen reported it, e.g. `emails.queue`. */
  source: z.string(),
  message: BilingualSchema,
});
export type WorkReason = z.infer<typeof WorkReasonSchema>;

const isoTime = z.string();

/**
 * What the updater is doing, as the renderer shows it. Decided by the state machine in
 * `main/services/updates/`; only `downloading`, `ready`, `waiting` and `installing` are shown to
 * staff. Failures are never shown: they become `retrying` and are retried quietly.
 */
export const UpdateStateSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('disabled'),
    /** `setting`: turned off in the app; `env`: ELECTRON_NO_UPDATER=1; `unsupported`: not an installed build. */
    reason: z.enum(['setting', 'env', 'unsupported']),
  }),
  z.object({ status: z.literal('idle'), checkedAt: isoTime.nullable(), nextCheckAt: isoTime.nullable() }),
  z.object({ status: z.literal('checking') }),
  z.object({
    status: z.literal('downloading'),
    version: z.string(),
    /** 0–100. */
    percent: z.number().min(0).max(100),
    transferred: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
  z.object({ status: z.literal('ready'), version: z.string() }),
  z.object({ status: z.literal('waiting'), version: z.string(), reasons: z.array(WorkReasonSchema) }),
  z.object({ status: z.literal('installing'), version: z.string() }),
  z.object({
    status: z.literal('retrying'),
    attempt: z.number().int().positive(),
    offline: z.boolean(),
    nextCheckAt: isoTime,
  }),
]);
export type UpdateState = z.infer<typeof UpdateStateSchema>;

export const updatesCalls = {
  /** The current update state (a window that opens late starts right). */
  'updates.status': call(noInput, UpdateStateSchema),
  /** Checks now instead of waiting for the next scheduled check; answers with the state after it. */
  'updates.check': call(noInput, UpdateStateSchema),
  /**
   * "Restart to update": installs the downloaded update as soon as no work is in progress. Answers
   * `installing`, or `waiting` with the reasons (it then installs by itself when they clear).
   */
  'updates.restart': call(noInput, UpdateStateSchema),
  /** Withdraws a pending restart while it is `waiting`; the update stays `ready`. */
  'updates.cancelRestart': call(noInput, UpdateStateSchema),
  /** The in-app switch (Settings); ELECTRON_NO_UPDATER=1 wins over it. */
  'updates.setEnabled': call(z.object({ enabled: z.boolean() }).strict(), UpdateStateSchema),
  /**
   * The renderer declares work only it knows about (e.g. a draft form with unsaved edits) so an
   * update never restarts the app under it. `busy: false` clears the declaration of that key.
   */
  'updates.declareWork': call(
    z
      .object({
        key: z.string().min(1).max(100),
        busy: z.boolean(),
        message: z.object({ en: z.string().max(200), vi: z.string().max(200) }).optional(),
      })
      .strict(),
    z.object({ ok: z.literal(true) }),
  ),
} as const;

export const updatesEvents = {
  'updates.state': UpdateStateSchema,
} as const;
