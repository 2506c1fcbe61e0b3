// Whether a visitor is in the middle of a questionnaire on this page: an app update must wait
// until they are done, or the reload would throw their answers away.

let inProgress = false;
const listeners = new Set<() => void>();

export function setQuestionnaireInProgress(value: boolean): void {
  if (inProgress === value) return;
  inProgress = value;
  listeners.forEach((listener) => listener());
}

export function isQuestionnaireInProgress(): boolean {
  return inProgress;
}

export function subscribeQuestionnaireActivity(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
