/**
 * Runs `task` once the page is idle (at the latest after `timeoutMs`), so that code which is not
 * needed for the first paint, such as the live questionnaire and its checks, does not compete with
 * it. Returns a cancel. Browsers without `requestIdleCallback` (Safari) wait one task.
 */
export function whenIdle(task: () => void, timeoutMs = 2_000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 1);
  return () => clearTimeout(timer);
}
