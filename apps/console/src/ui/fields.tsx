import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

// Form controls with their label, hint and error tied together (for, aria-describedby).

interface Common {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
}

function described(id: string, hint?: ReactNode, error?: string) {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return ids ? { "aria-describedby": ids } : {};
}

function Extra({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </>
  );
}

export function TextField({ label, hint, error, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" aria-invalid={error ? true : undefined} {...described(id, hint, error)} {...input} />
      <Extra id={id} hint={hint} error={error} />
    </div>
  );
}

export function TextArea({ label, hint, error, ...input }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} aria-invalid={error ? true : undefined} {...described(id, hint, error)} {...input} />
      <Extra id={id} hint={hint} error={error} />
    </div>
  );
}

export function Select({ label, hint, error, children, ...input }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...described(id, hint, error)} {...input}>
        {children}
      </select>
      <Extra id={id} hint={hint} error={error} />
    </div>
  );
}

export function Checkbox({ label, hint, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input id={id} type="checkbox" {...described(id, hint)} {...input} />
      <label htmlFor={id}>{label}</label>
      <Extra id={id} hint={hint} />
    </div>
  );
}

/** Lines of a textarea as a list (blank lines dropped). */
export const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
