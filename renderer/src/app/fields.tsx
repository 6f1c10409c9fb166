import { useRef, useState, type ReactNode, type TextareaHTMLAttributes } from 'react';

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

/** A labelled multi-line text box; the other props go to the textarea. */
export function TextAreaField({
  label,
  className = 'field',
  onText,
  ...textarea
}: { label: string; className?: string; onText: (text: string) => void } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'className'>) {
  return (
    <label className={className}>
      <span>{label}</span>
      <textarea {...textarea} onChange={(e) => onText(e.target.value)} />
    </label>
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

/**
 * A file chooser whose words are the app's (the browser's own input speaks the browser's
 * language): a button-like label and the chosen file's name.
 */
export function FilePicker({ label, accept, noFile, onFile }: { label: string; accept: string; noFile: string; onFile: (file: File) => void | Promise<void> }) {
  const [name, setName] = useState<string | null>(null);
  return (
    <div className="file-picker">
      <label className="file-button">
        {label}
        <input
          type="file"
          className="visually-hidden"
          accept={accept}
          onChange={(e) => {
            const input = e.currentTarget;
            const file = input.files?.[0];
            if (!file) return;
            setName(file.name);
            void Promise.resolve(onFile(file)).finally(() => (input.value = ''));
          }}
        />
      </label>
      <span className="file-name">{name ?? noFile}</span>
    </div>
  );
}

/** A button that opens the file chooser (a hidden input) and hands over the file chosen. */
export function FileButton({ label, accept, onFile }: { label: string; accept: string; onFile: (file: File) => Promise<unknown> }) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => ref.current?.click()}>
        {label}
      </button>
      <input
        ref={ref}
        type="file"
        accept={accept}
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          if (file) void onFile(file).then(() => (input.value = ''));
        }}
      />
    </>
  );
}

/** A fieldset of radio buttons, one per choice; `children` come after them (a hint, say). */
export function RadioFieldset<V extends string | number>({
  legend,
  name,
  value,
  choices,
  label,
  onChange,
  children,
}: {
  legend: string;
  name: string;
  value: V;
  choices: readonly V[];
  label: (choice: V) => string;
  onChange: (choice: V) => void;
  children?: ReactNode;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice} className="check">
          <input type="radio" name={name} value={choice} checked={value === choice} onChange={() => onChange(choice)} />
          {label(choice)}
        </label>
      ))}
      {children}
    </fieldset>
  );
}
