import { useState, useSyncExternalStore } from 'react';
import {
  isQuestionnaireInProgress,
  subscribeQuestionnaireActivity,
} from '../offline/questionnaire-activity.ts';
import {
  installHintClassNames as hintClass,
  installHintText as hint,
  installHintWanted,
  rememberInstallHintSeen,
  updateCheckMs,
  updatePromptClassNames as promptClass,
  updatePromptText as prompt,
} from './pwa-notices-view.ts';
import { useRegisterSW } from './register-sw.ts';

// The app shell's notices (src/app/public-layout.tsx); a prerendered page runs the plain DOM
// ones (pwa-notices-dom.ts) with the same words.

/**
 * Registers the service worker and offers a waiting new version. Never reloads by itself, and
 * stays hidden while a questionnaire is in progress: the visitor finishes first.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update(), updateCheckMs);
    },
  });
  const busy = useSyncExternalStore(
    subscribeQuestionnaireActivity,
    isQuestionnaireInProgress,
    () => false,
  );
  if (!needRefresh || busy) return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby="update-titel"
      aria-describedby="update-text"
      className={promptClass.dialog}
    >
      <h2 id="update-titel" className={promptClass.title}>
        {prompt.title}
      </h2>
      <p id="update-text" className={promptClass.text}>
        {prompt.text}
      </p>
      <div className={promptClass.buttons}>
        <button
          type="button"
          onClick={() => void updateServiceWorker(true)}
          className={promptClass.reload}
        >
          {prompt.reload}
        </button>
        <button type="button" onClick={() => setNeedRefresh(false)} className={promptClass.later}>
          {prompt.later}
        </button>
      </div>
    </div>
  );
}

/** Tells iPad and iPhone Safari once to add the page to the home screen (pwa-notices-view.ts). */
export function InstallHint() {
  const [visible, setVisible] = useState(installHintWanted);
  if (!visible) return null;
  const dismiss = () => {
    rememberInstallHintSeen();
    setVisible(false);
  };
  return (
    <aside aria-label={hint.label} className={hintClass.aside}>
      <p>
        <strong>{hint.tip}</strong>
        {hint.text}
      </p>
      <button type="button" onClick={dismiss} className={hintClass.dismiss}>
        {hint.dismiss}
      </button>
    </aside>
  );
}
