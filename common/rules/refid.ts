/**
 * RefID: the invoice's identifier in our system, a UUID (docs/service.md#invoicedata). Generated with the Web
 * Crypto `crypto.randomUUID()` of globalThis, present in browsers, Electron and Node ≥ 19, so
 * common/ needs no Node import.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newRefID(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (!c?.randomUUID) throw new Error('crypto.randomUUID is not available in this environment');
  return c.randomUUID();
}

export function isUuid(s: string): boolean {
  return UUID.test(s.trim());
}
