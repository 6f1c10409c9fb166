import type { DownloadResult } from '../api/normalise';
import { message } from './outcomes';
import type { Bilingual } from '../../../common/model';
import type { ItemRow } from './repository';

type Answered = Extract<DownloadResult, { kind: 'items' }>['items'][number];

export type Match = { answer: Answered } | { errorCode: 'NotReturned' | 'AmbiguousAnswer'; text: Bilingual };

const NOT_RETURNED = message('The service did not return this invoice in its answer.', 'Dịch vụ không trả về hóa đơn này trong kết quả.');
const AMBIGUOUS = message(
  'The answer holds more than one invoice whose TransactionID matches this one only when upper and lower case are ignored; none was saved, to avoid saving another invoice under this name.',
  'Kết quả có nhiều hóa đơn trùng mã tra cứu này nếu bỏ qua chữ hoa/chữ thường; không lưu hóa đơn nào để tránh lưu nhầm hóa đơn khác.',
);

/**
 * Pairs each requested item with the answer item it asked for: the exact TransactionID first;
 * otherwise (some deployments change the case of IDs) a case-insensitive match only when it is
 * the one answer of that spelling not claimed exactly by another requested ID, and this item is
 * the only one still asking for it. Anything else fails the item with a reason, never with
 * another invoice's bytes.
 */
export function matchAnswers(batch: readonly ItemRow[], items: readonly Answered[]): Map<number, Match> {
  const byId = new Map<string, Answered>();
  for (const it of items) if (!byId.has(it.transactionId)) byId.set(it.transactionId, it);
  const requested = new Set(batch.map((i) => i.transactionId));
  const loose = new Map<string, Set<string>>();
  for (const id of byId.keys()) {
    if (requested.has(id)) continue;
    const key = id.toLowerCase();
    loose.set(key, (loose.get(key) ?? new Set()).add(id));
  }
  const askers = new Map<string, number>();
  for (const item of batch) {
    if (byId.has(item.transactionId)) continue;
    const key = item.transactionId.toLowerCase();
    askers.set(key, (askers.get(key) ?? 0) + 1);
  }
  const out = new Map<number, Match>();
  for (const item of batch) {
    const exact = byId.get(item.transactionId);
    if (exact) {
      out.set(item.seq, { answer: exact });
      continue;
    }
    const key = item.transactionId.toLowerCase();
    const candidates = loose.get(key);
    if (!candidates || candidates.size === 0) out.set(item.seq, { errorCode: 'NotReturned', text: NOT_RETURNED });
    else if (candidates.size === 1 && askers.get(key) === 1) out.set(item.seq, { answer: byId.get([...candidates][0]!)! });
    else out.set(item.seq, { errorCode: 'AmbiguousAnswer', text: AMBIGUOUS });
  }
  return out;
}
