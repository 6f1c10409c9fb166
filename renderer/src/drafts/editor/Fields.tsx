import { memo, type ReactNode } from 'react';

export type OnField = (path: string, value: string) => void;

/** What a block of the editor gets: problems and the service's codes by field path, and where edits go. */
export interface BlockProps {
  byPath: Map<string, string>;
  codes: Map<string, string>;
  onField: OnField;
}

/** The props of the Field for `path` (its value, problem and code) in a block of `draft`'s fields. */
export function fieldOf<S>(draft: S, { byPath, codes, onField }: BlockProps) {
  return (path: keyof S & string) => ({ path, value: String(draft[path] ?? ''), problem: byPath.get(path), code: codes.get(path), onChange: onField });
}

interface FieldProps {
  path: string;
  label: string;
  value: string;
  problem?: string | undefined;
  /** The service's code behind the problem, shown small beside it. */
  code?: string | undefined;
  onChange(path: string, value: string): void;
  type?: 'text' | 'date' | 'email' | 'tel';
  inputMode?: 'decimal' | 'numeric' | 'text';
  list?: string;
  hint?: ReactNode;
  className?: string;
}

/** One labelled input; its problem is shown under it and tied to it (aria-invalid, aria-describedby). */
export const Field = memo(function Field({ path, label, value, problem, code, onChange, type = 'text', inputMode, list, hint, className }: FieldProps) {
  const id = `f-${path}`;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        data-path={path}
        type={type}
        inputMode={inputMode}
        list={list}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-err` : undefined}
        onChange={(e) => onChange(path, e.target.value)}
      />
      {hint}
      <FieldError id={`${id}-err`} problem={problem} code={code} />
    </div>
  );
});

/** A field's problem in words, and the service's code (if any) small beside it. */
export function FieldError({ id, problem, code }: { id: string; problem: string | undefined; code?: string | undefined }) {
  if (!problem) return null;
  return (
    <span className="field-error" id={id}>
      {problem}
      {code && <small className="error-code"> {code}</small>}
    </span>
  );
}
