import { h } from '../ui/dom.ts';
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
import { registerSW } from './register-sw-vanilla.ts';

// The PWA notices of a prerendered page in plain DOM: the service worker's registration runs on
// every page, and React's runtime would be most of its code. The app shell has the same notices
// in React (pwa-notices.tsx).

function updatePrompt(reload: () => void, later: () => void): HTMLElement {
  const reloadButton = h(
    'button',
    { type: 'button', className: promptClass.reload },
    prompt.reload,
  );
  reloadButton.addEventListener('click', reload);
  const laterButton = h('button', { type: 'button', className: promptClass.later }, prompt.later);
  laterButton.addEventListener('click', later);
  return h(
    'div',
    {
      role: 'alertdialog',
      'aria-labelledby': 'update-titel',
      'aria-describedby': 'update-text',
      className: promptClass.dialog,
    },
    h('h2', { id: 'update-titel', className: promptClass.title }, prompt.title),
    h('p', { id: 'update-text', className: promptClass.text }, prompt.text),
    h('div', { className: promptClass.buttons }, reloadButton, laterButton),
  );
}

function installHint(): HTMLElement {
  const dismiss = h('button', { type: 'button', className: hintClass.dismiss }, hint.dismiss);
  const aside = h(
    'aside',
    { 'aria-label': hint.label, className: hintClass.aside },
    h('p', {}, h('strong', {}, hint.tip), hint.text),
    dismiss,
  );
  dismiss.addEventListener('click', () => {
    rememberInstallHintSeen();
    aside.remove();
  });
  return aside;
}

/**
 * Starts the `pwa-notices` island: registers the service worker and offers a waiting new version,
 * never reloading by itself and hidden while a questionnaire is in progress (the visitor
 * finishes first); on iPad and iPhone Safari the install hint, once.
 */
export function startPwaNotices(element: HTMLElement): void {
  let waiting = false;
  let shown: HTMLElement | undefined;
  const show = () => {
    const wanted = waiting && !isQuestionnaireInProgress();
    if (wanted && !shown) {
      shown = updatePrompt(
        () => void updateServiceWorker(true),
        () => {
          waiting = false;
          show();
        },
      );
      element.append(shown);
    } else if (!wanted && shown) {
      shown.remove();
      shown = undefined;
    }
  };
  const updateServiceWorker = registerSW({
    // At once, as vite-plugin-pwa's React hook does: this runs after the page's load event.
    immediate: true,
    onNeedRefresh() {
      waiting = true;
      show();
    },
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update(), updateCheckMs);
    },
  });
  subscribeQuestionnaireActivity(show);
  if (installHintWanted()) element.append(installHint());
}
