import { memo, type ReactNode } from 'react';

interface FieldProps {
  path: string;
  label: string;
  value: string;
  problem?: string | undefined;
  onChange(path: string, value: string): void;
  type?: 'text' | 'date' | 'email' | 'tel';
  inputMode?: 'decimal' | 'numeric' | 'text';
  list?: string;
  hint?: ReactNode;
  className?: string;
}

/** One labelled input; its problem is shown under it and tied to it (aria-invalid, aria-describedby). */
export const Field = memo(function Field({ path, label, value, problem, onChange, type = 'text', inputMode, list, hint, className }: FieldProps) {
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
      {problem && (
        <span className="field-error" id={`${id}-err`}>
          {problem}
        </span>
      )}
    </div>
  );
});
