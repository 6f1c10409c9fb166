import { memo, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type InputHTMLAttributes, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';

export interface Suggestion<T> {
  key: string;
  label: string;
  detail?: string;
  value: T;
}

interface Props<T> extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'onSelect'> {
  value: string;
  onChange(value: string): void;
  /** Looks up suggestions for what is typed (debounced). */
  search(query: string): Promise<Suggestion<T>[]>;
  onPick(value: T): void;
  listLabel: string;
}

const LIST_MAX_HEIGHT = 240;

/**
 * Where the list goes: in a layer above the page (position fixed, so no grid cell or scrolling
 * box clips it), under the field, or above it when the window has no room below.
 */
function placeList(input: HTMLElement, listHeight: number): CSSProperties {
  const r = input.getBoundingClientRect();
  const below = window.innerHeight - r.bottom;
  const height = Math.min(listHeight || LIST_MAX_HEIGHT, LIST_MAX_HEIGHT);
  const up = below < height + 8 && r.top > below;
  const width = Math.max(r.width, 260);
  const left = Math.max(4, Math.min(r.left, window.innerWidth - width - 4));
  return up
    ? { position: 'fixed', left, bottom: window.innerHeight - r.top + 2, minWidth: width, maxHeight: Math.min(LIST_MAX_HEIGHT, r.top - 8) }
    : { position: 'fixed', left, top: r.bottom + 2, minWidth: width, maxHeight: Math.min(LIST_MAX_HEIGHT, below - 8) };
}

/**
 * A text input with a suggestion list (ARIA combobox): type, ArrowDown/ArrowUp to move, Enter to
 * take the highlighted suggestion, Escape to close. With the list closed, keys go to the form.
 */
function AutocompleteField<T>({ value, onChange, search, onPick, listLabel, onKeyDown, onBlur, ...rest }: Props<T>) {
  const [items, setItems] = useState<Suggestion<T>[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const typed = useRef(false);
  const seq = useRef(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [place, setPlace] = useState<CSSProperties>({ position: 'fixed' });

  // Follow the field while the list is open (the page scrolls, the window resizes).
  useLayoutEffect(() => {
    if (!open) return;
    const update = () => {
      if (inputRef.current) setPlace(placeList(inputRef.current, listRef.current?.scrollHeight ?? 0));
    };
    update();
    window.addEventListener('scroll', update, true);
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update, true);
      window.removeEventListener('resize', update);
    };
  }, [open, items]);
  // Keep the highlighted option in view when the arrows move past the list's edge.
  useEffect(() => {
    if (open && active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [open, active, listId]);

  useEffect(() => {
    if (!typed.current) return;
    const q = value.trim();
    if (q.length === 0) {
      setOpen(false);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      search(q).then(
        (found) => {
          if (mine !== seq.current) return;
          setItems(found);
          setActive(found.length ? 0 : -1);
          // Only for the field being typed in: an answer arriving after the cursor left stays shut.
          setOpen(found.length > 0 && document.activeElement === inputRef.current);
        },
        () => setOpen(false),
      );
    }, 120);
    return () => clearTimeout(timer);
  }, [value, search]);

  const pick = (item: Suggestion<T>) => {
    typed.current = false;
    seq.current++;
    setOpen(false);
    onPick(item.value);
  };

  const keyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (open && items.length) {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        setActive((a) => (a + 1) % items.length);
        return;
      }
      if (e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
        return;
      }
      if (e.key === 'Enter' && !e.ctrlKey && !e.shiftKey && active >= 0) {
        e.preventDefault();
        e.stopPropagation();
        pick(items[active]!);
        // Let the form move on after the pick (the caller decides where).
        onKeyDown?.(e);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        return;
      }
    } else if (e.key === 'ArrowDown' && value.trim()) {
      e.preventDefault();
      typed.current = true;
      void search(value.trim()).then((found) => {
        setItems(found);
        setActive(found.length ? 0 : -1);
        setOpen(found.length > 0);
      });
      return;
    }
    onKeyDown?.(e);
  };

  return (
    <div className="ac">
      <input
        {...rest}
        ref={inputRef}
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        onChange={(e) => {
          typed.current = true;
          onChange(e.target.value);
        }}
        onKeyDown={keyDown}
        onBlur={(e) => {
          typed.current = false;
          seq.current++;
          setOpen(false);
          onBlur?.(e);
        }}
      />
      {createPortal(
        <ul id={listId} ref={listRef} role="listbox" aria-label={listLabel} className="ac-list" hidden={!open} style={place}>
          {open &&
            items.map((item, i) => (
              <li
                key={item.key}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'ac-option active' : 'ac-option'}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(item);
                }}
              >
                <span>{item.label}</span>
                {item.detail && <span className="ac-detail">{item.detail}</span>}
              </li>
            ))}
        </ul>,
        document.body,
      )}
    </div>
  );
}

/** Memoised: a line's name and code fields are left alone while a keystroke changes another field of the line. */
export const Autocomplete = memo(AutocompleteField) as typeof AutocompleteField;
