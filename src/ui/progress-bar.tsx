interface ProgressBarProps {
  current: number;
  total: number;
  label: string;
}

/** Progress as a bar for the eye and as a progressbar with its values for screen readers. */
export function ProgressBar({ current, total, label }: ProgressBarProps) {
  const percent = total > 0 ? Math.round((current / total) * 100) : 0;
  return (
    <div className="mb-6">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={current}
        aria-valuetext={`Frage ${current} von ${total}`}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-brand-600 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-2 text-sm text-slate-600" aria-hidden="true">
        Frage {current} von {total}
      </p>
    </div>
  );
}
