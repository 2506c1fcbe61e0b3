import { useEffect, useState } from 'react';
import { LoadError } from '../../ui/load-error.tsx';
import type { ContactStepProps } from './contact-step.tsx';

// The contact step brings the contact schemas (zod), the form library and the outbox (Dexie):
// more code than every question before it. It is fetched once the page is idle after the first
// question, or at the first answer if that comes sooner (preloadContactStep), and shown from
// here, so the first question never waits for it.

type ContactStepModule = typeof import('./contact-step.tsx');

/** The module once it has arrived: the step then renders at once, without a loading line. */
let loaded: ContactStepModule | undefined;
let pending: Promise<ContactStepModule> | undefined;

function loadContactStep(): Promise<ContactStepModule> {
  pending ??= import('./contact-step.tsx').then(
    (module) => (loaded = module),
    (error: unknown) => {
      // Not arrived (offline before the service worker held it): the next call tries again.
      pending = undefined;
      throw error;
    },
  );
  return pending;
}

/** Fetches the contact step's code ahead; a failure waits for the step's own attempt. */
export function preloadContactStep(): void {
  loadContactStep().catch(() => undefined);
}

/** The contact step, with a loading line while its code arrives and a retry if it does not. */
export function LazyContactStep(props: ContactStepProps) {
  const [module, setModule] = useState(loaded);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (module) return;
    let current = true;
    loadContactStep().then(
      (arrived) => current && setModule(arrived),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [module, attempt]);

  if (module) return <module.ContactStep {...props} />;
  if (failed) {
    return (
      <LoadError
        onRetry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      >
        Das Kontaktformular konnte nicht geladen werden. Bitte prüfen Sie Ihre Verbindung.
      </LoadError>
    );
  }
  return (
    <p role="status" className="py-8 text-slate-600">
      Kontaktformular wird geladen …
    </p>
  );
}
