import { useEffect, useRef, useState } from 'react';
import { TablePages, type TablePagesOptions } from './table-pages';

/** A long table's pages for the life of its screen: the latest `onError` is told, and the reads stop when the screen closes. */
export function useTablePages<T>({ onError, ...options }: TablePagesOptions): TablePages<T> {
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  const [pages] = useState(() => new TablePages<T>({ ...options, onError: (e) => onErrorRef.current(e) }));
  useEffect(() => () => pages.clear(), [pages]);
  return pages;
}
