import { useEffect, useState } from 'react';

const activityEvents = ['pointerdown', 'keydown', 'input', 'wheel', 'touchstart'] as const;

/**
 * Kiosk mode: after `idleMs` without input, warn for `warnMs`, then call `onReset`. Any input
 * during the warning keeps the questionnaire, so a visitor who is still there loses nothing.
 */
export function useIdleReset(options: {
  enabled: boolean;
  idleMs: number;
  warnMs: number;
  onReset: () => void;
}): { warning: boolean; secondsLeft: number } {
  const { enabled, idleMs, warnMs, onReset } = options;
  const [warningSince, setWarningSince] = useState<number>();
  const [now, setNow] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    let idleTimer: ReturnType<typeof setTimeout>;
    let resetTimer: ReturnType<typeof setTimeout> | undefined;
    let ticker: ReturnType<typeof setInterval> | undefined;
    const arm = () => {
      clearTimeout(idleTimer);
      clearTimeout(resetTimer);
      clearInterval(ticker);
      setWarningSince(undefined);
      idleTimer = setTimeout(() => {
        const since = Date.now();
        setWarningSince(since);
        setNow(since);
        ticker = setInterval(() => setNow(Date.now()), 1_000);
        resetTimer = setTimeout(onReset, warnMs);
      }, idleMs);
    };
    arm();
    activityEvents.forEach((name) => document.addEventListener(name, arm, { passive: true }));
    return () => {
      clearTimeout(idleTimer);
      clearTimeout(resetTimer);
      clearInterval(ticker);
      activityEvents.forEach((name) => document.removeEventListener(name, arm));
    };
  }, [enabled, idleMs, warnMs, onReset]);

  const warning = enabled && warningSince !== undefined;
  const secondsLeft = warning ? Math.max(0, Math.ceil((warningSince + warnMs - now) / 1000)) : 0;
  return { warning, secondsLeft };
}
