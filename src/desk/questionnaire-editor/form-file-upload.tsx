import { useId, useRef, type ReactNode } from 'react';
import {
  acceptedTypes,
  useFormFileUpload,
  type UploadedFile,
  type UploadKind,
} from '../api/uploads.ts';
import { Button } from '../../ui/button.tsx';

/**
 * A file picker that uploads at once to the `documents` bucket, with its progress as a bar and a
 * percentage; the chosen file reaches the form through `onUploaded` and is saved with it.
 */
export function FormFileUpload({
  formId,
  kind,
  label,
  hint,
  onUploaded,
  children,
}: {
  formId: number;
  kind: UploadKind;
  label: string;
  hint: string;
  onUploaded: (file: UploadedFile) => void;
  /** What the field holds now, shown under the picker. */
  children?: ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hinweis`;
  const errorId = `${id}-fehler`;
  const input = useRef<HTMLInputElement>(null);
  const { state, start, abort } = useFormFileUpload(formId, kind);
  const failure = state.status === 'failed' ? state.message : undefined;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const uploaded = await start(file);
    // Emptied so that choosing the same file again uploads it again.
    if (input.current) input.current.value = '';
    if (uploaded) onUploaded(uploaded);
  };

  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium text-slate-800">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={acceptedTypes[kind].join(',')}
        disabled={state.status === 'uploading'}
        aria-invalid={failure ? true : undefined}
        aria-describedby={[hintId, failure ? errorId : ''].filter(Boolean).join(' ')}
        onChange={(event) => void choose(event.target.files?.[0])}
        className="block w-full rounded-lg border border-slate-400 bg-white text-base text-slate-900 file:mr-3 file:min-h-11 file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-800"
      />
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {hint}
      </p>
      {state.status === 'uploading' ? (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <progress
            max={100}
            value={state.percent}
            aria-label={`${label}: Fortschritt des Hochladens`}
            className="h-3 grow"
          />
          <span aria-hidden="true" className="text-sm font-medium text-slate-800">
            {state.percent} %
          </span>
          <Button variant="secondary" onClick={abort}>
            Hochladen abbrechen
          </Button>
        </div>
      ) : null}
      {failure ? (
        <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-red-700">
          {failure}
        </p>
      ) : null}
      {children}
    </div>
  );
}
