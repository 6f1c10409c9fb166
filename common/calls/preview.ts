import { z } from 'zod';
import { call } from './define';

export const PreviewResultSchema = z.object({
  previewId: z.string(),
  draftId: z.string(),
  /** `pdf`: bytes kept; `page`: the link served a web page, opened locked to its origin. */
  kind: z.enum(['pdf', 'page']),
  size: z.number().int(),
  createdAt: z.string(),
});
export type PreviewResult = z.infer<typeof PreviewResultSchema>;

export const previewCalls = {
  /** Saves nothing: sends the stored draft to unpublishview, fetches the PDF at once and keeps the bytes. */
  'preview.run': call(z.object({ draftId: z.string().min(1).max(100) }).strict(), PreviewResultSchema),
  /**
   * Shows a kept preview. Electron opens the embedded preview window (`opened: true`); the
   * browser host answers with the path of a page serving the same bytes (`path`, add the secret).
   */
  'preview.open': call(z.object({ previewId: z.string().min(1).max(100) }).strict(), z.object({ opened: z.boolean(), path: z.string().nullable() })),
} as const;

export const previewEvents = {} as const;
