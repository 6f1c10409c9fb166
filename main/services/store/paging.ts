/**
 * A page that starts in the far half of a query's `total` rows is read from the other end, in the
 * reversed order, and its rows reversed: SQLite steps over the rows before an OFFSET one by one, so
 * the last page of 100 000 rows then costs what the first does. Returns the offset and limit to
 * read in the reversed order, or null to read the page as asked. The order must be total (ties
 * broken by a unique column) and `total` counted in the same snapshot as the page (Store.read).
 */
export function fromOtherEnd(total: number, offset: number, limit: number): { offset: number; limit: number } | null {
  if (!(limit > 0) || offset * 2 <= total) return null;
  const rest = Math.max(0, total - offset);
  return { offset: Math.max(0, rest - limit), limit: Math.min(limit, rest) };
}
