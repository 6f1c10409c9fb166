import type { ReactNode } from 'react';

/** `<thead>` with one column header per label. */
export function ColumnHeaders({ columns }: { columns: ReadonlyArray<ReactNode | { label: ReactNode; className: string }> }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) =>
          c !== null && typeof c === 'object' && 'className' in c ? (
            <th key={i} scope="col" className={c.className}>
              {c.label}
            </th>
          ) : (
            <th key={i} scope="col">
              {c}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** A labelled drop-down of fixed choices. */
export function SelectField<V extends string>({
  label,
  value,
  options,
  onChange,
  className = 'field',
}: {
  label: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange: (value: V) => void;
  className?: string;
}) {
  return (
    <label className={className}>
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
