/**
 * A page that starts in the far half of a query's `total` rows is read from the other end, in the
 * reversed order, and its rows reversed: SQLite steps over the rows before an OFFSET one by one, so
 * the last page of 100 000 rows then costs what the first does. Returns the offset and limit to
 * read in the reversed order, or null to read the page as asked. The order must be total (ties
 * broken by a unique column) and `total` counted in the same snapshot as the page (Store.read).
 */
function fromOtherEnd(total: number, offset: number, limit: number): { offset: number; limit: number } | null {
  if (!(limit > 0) || offset * 2 <= total) return null;
  const rest = Math.max(0, total - offset);
  return { offset: Math.max(0, rest - limit), limit: Math.min(limit, rest) };
}

/**
 * Reads a page of `limit` rows from `offset` of a query's `total`: as asked, or, when it starts in
 * the far half, with `read` told to use the mirrored order (fromOtherEnd) and its rows reversed.
 */
export function readPage<T>(total: number, offset: number, limit: number, read: (page: { offset: number; limit: number }, mirrored: boolean) => T[]): T[] {
  const far = fromOtherEnd(total, offset, limit);
  if (!far) return read({ offset, limit }, false);
  return far.limit === 0 ? [] : read(far, true).reverse();
}
