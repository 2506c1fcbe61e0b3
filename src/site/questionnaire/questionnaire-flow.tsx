import {
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useQuestions } from '../../offline/use-questions.ts';
import type { QuestionnaireContactInput } from '../../domain/contact-forms.ts';
import {
  answerByKey,
  buildQuestionnaireSubmission,
  carryProgress,
  childCount,
  questionKeys,
  type AnswerValue,
  type Answers,
  type Question,
  type QuestionnaireDefinition,
} from '../../domain/questionnaire.ts';
import { readDeviceSetting, subscribeDeviceSettings } from '../../offline/device-settings.ts';
import { setQuestionnaireInProgress } from '../../offline/questionnaire-activity.ts';
import {
  clearDraft,
  draftAnswers,
  resumeStoredDraft,
  saveDraft,
} from '../../offline/questionnaire-draft.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { whenIdle } from '../../offline/when-idle.ts';
import { useHydrated } from '../../ui/use-hydrated.ts';
import { LazyContactStep, preloadContactStep } from './lazy-contact-step.tsx';
import { QuestionStep } from './question-step.tsx';
import { ThankYouStep } from './thank-you-step.tsx';
import { laterStepAttribute } from '../shared/page-with-intro.tsx';
import { useIdleReset } from './use-idle-reset.ts';

/** Kiosk mode: the thank-you screen stays this long before the next visitor gets an empty start. */
const KIOSK_THANK_YOU_MS = 20_000;
const KIOSK_IDLE_MS = 3 * 60_000;
const KIOSK_WARNING_MS = 30_000;

export interface FinishedQuestionnaire {
  questions: Question[];
  answers: Answers;
  /** Sent to the hub, or saved on this device and waiting to be sent. */
  delivery: 'sent' | 'queued';
  /** The form's uploaded document (offer PDF), null without one. */
  documentUrl: string | null;
}

interface QuestionnaireFlowProps {
  formId: number;
  /**
   * The definition the build knows (built-questionnaires.ts): the page's HTML shows its first
   * question, and the live one replaces it on the device when staff have changed it since.
   */
  built?: QuestionnaireDefinition | undefined;
  /** Downloads and next steps on the thank-you screen. */
  renderDownloads?: (finished: FinishedQuestionnaire) => ReactNode;
}

/** A questionnaire: one question per screen, then the contact form and thanks. */
export function QuestionnaireFlow(props: QuestionnaireFlowProps) {
  // With a built definition the prerendered page shows the first question, and the island
  // hydrates it; without one (an address /fragebogen/:id) a loading line until the hub answers.
  // Room for a question step keeps the footer where it is if the live questionnaire differs
  // (no layout shift).
  return (
    <div className="min-h-[36rem]">
      <QuestionnaireFlowContent {...props} />
    </div>
  );
}

function QuestionnaireFlowContent({ formId, built, renderDownloads }: QuestionnaireFlowProps) {
  const state = useQuestions(formId, built);
  const kiosk = useSyncExternalStore(
    subscribeDeviceSettings,
    () => readDeviceSetting('kiosk'),
    () => false,
  );
  // A new run is a fresh, empty questionnaire: kiosk mode starts one for each visitor.
  const [run, setRun] = useState(0);
  const restart = useCallback(() => setRun((n) => n + 1), []);
  // Kiosk mode switched on or off starts a new run too. The hydrating render knows no device
  // setting (the HTML's); the device's, read right after, is no switch: a new run there would
  // lose the first answer tapped before the code ran (kept and repeated by the island).
  const hydrated = useHydrated();
  const [wasHydrated, setWasHydrated] = useState(hydrated);
  const [shownKiosk, setShownKiosk] = useState(kiosk);
  const [kioskSwitches, setKioskSwitches] = useState(0);
  if (hydrated !== wasHydrated) setWasHydrated(hydrated);
  if (kiosk !== shownKiosk) {
    setShownKiosk(kiosk);
    if (wasHydrated) setKioskSwitches((n) => n + 1);
  }
  if (state.status === 'loading') {
    return (
      <p role="status" className="py-8 text-slate-600">
        Fragebogen wird geladen …
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <LoadError detail={state.message} onRetry={state.retry}>
        Der Fragebogen konnte nicht geladen werden.
      </LoadError>
    );
  }
  if (state.questions.length === 0) {
    return (
      <Alert tone="info">
        Dieser Fragebogen hat noch keine Fragen. Bitte schauen Sie später noch einmal vorbei.
      </Alert>
    );
  }
  return (
    <QuestionnaireSteps
      key={`${run}:${kioskSwitches}`}
      formId={formId}
      questions={state.questions}
      documentUrl={state.documentUrl}
      renderDownloads={renderDownloads}
      kiosk={kiosk}
      onRestart={restart}
    />
  );
}

function QuestionnaireSteps({
  formId,
  questions,
  documentUrl,
  renderDownloads,
  kiosk,
  onRestart,
}: {
  formId: number;
  questions: Question[];
  documentUrl: string | null;
  renderDownloads: QuestionnaireFlowProps['renderDownloads'];
  kiosk: boolean;
  onRestart: () => void;
}) {
  // Every run starts at the first question, as the prerendered HTML shows it: hydrating must
  // match. A draft is applied once the island runs on its own (at once where nothing is hydrated).
  const [step, setStep] = useState(0);
  const [answers, setAnswers] = useState<Answers>({});
  const [contact, setContact] = useState<Partial<QuestionnaireContactInput>>({});
  const [finished, setFinished] = useState<FinishedQuestionnaire>();
  // The draft goes as soon as the lead is in the outbox: a visitor who closes the tab while the
  // hub has not answered yet must not find the form filled again and send it a second time.
  const leadStored = useRef(false);

  // Kiosk mode keeps no drafts: the next visitor must never see the previous one's answers.
  // Elsewhere a draft holds answers only, never contact details (the device may be shared).
  const hydrated = useHydrated();
  const [draftRead, setDraftRead] = useState(false);
  if (hydrated && !draftRead) {
    setDraftRead(true);
    const resumed = kiosk ? undefined : resumeStoredDraft(formId, questions);
    if (resumed) {
      setStep(resumed.step);
      setAnswers(resumed.answers);
    }
  }

  // The live questionnaire replaced the built one (staff changed it): the visitor keeps the
  // answers to unchanged questions and is told when one has to be given again.
  const [shownQuestions, setShownQuestions] = useState(questions);
  const [changedNotice, setChangedNotice] = useState(false);
  if (shownQuestions !== questions) {
    const carried = carryProgress(shownQuestions, questions, { step, answers });
    setShownQuestions(questions);
    setStep(carried.step);
    setAnswers(carried.answers);
    if (carried.dropped) setChangedNotice(true);
  }

  // Move focus to the new step's heading so keyboard and screen-reader users follow along;
  // not on the first render, where the page heading comes first.
  const [moved, setMoved] = useState(false);
  const focusHeading = useCallback(
    (element: HTMLHeadingElement | null) => {
      if (element && moved) element.focus();
    },
    [moved],
  );
  const goTo = (next: number) => {
    setMoved(true);
    setStep(Math.max(0, Math.min(next, questions.length)));
  };

  // Nothing is stored for a visitor who only looked: a draft begins with the first answer.
  const hasInput = step > 0 || Object.keys(answers).length > 0;
  useEffect(() => {
    if (kiosk) clearDraft(formId);
    else if (!finished && hasInput && !leadStored.current) {
      saveDraft(formId, { step, answers: draftAnswers(questions, answers) }, Date.now());
    }
  }, [formId, questions, step, answers, finished, kiosk, hasInput]);

  const started = finished !== undefined || step > 0 || Object.keys(answers).length > 0;
  const inProgress = started && finished === undefined;
  // The contact step's code (its checks, the form library, the outbox) is fetched once the page
  // is idle after the first question, or at the first answer if that comes sooner: the first
  // question never waits for it, and a connection lost after the first paint does not lose it.
  useEffect(() => {
    if (!started) return hydrated ? whenIdle(preloadContactStep) : undefined;
    preloadContactStep();
    return undefined;
  }, [started, hydrated]);
  useEffect(() => {
    setQuestionnaireInProgress(inProgress);
    return () => setQuestionnaireInProgress(false);
  }, [inProgress]);
  const idle = useIdleReset({
    enabled: kiosk && started,
    idleMs: KIOSK_IDLE_MS,
    warnMs: KIOSK_WARNING_MS,
    onReset: onRestart,
  });
  useEffect(() => {
    if (!kiosk || !finished) return;
    const timer = setTimeout(onRestart, KIOSK_THANK_YOU_MS);
    return () => clearTimeout(timer);
  }, [kiosk, finished, onRestart]);

  const onContactChange = useCallback(
    (values: QuestionnaireContactInput) => setContact(values),
    [],
  );

  const idleWarning = idle.warning ? <IdleWarning secondsLeft={idle.secondsLeft} /> : null;

  if (finished) {
    return (
      <>
        {idleWarning}
        <LaterStep />
        <ThankYouStep delivery={finished.delivery} onRestart={kiosk ? onRestart : undefined}>
          {renderDownloads?.(finished)}
        </ThankYouStep>
      </>
    );
  }

  function answer(questionId: number, value: AnswerValue, advance: boolean) {
    setAnswers((current) => ({ ...current, [questionId]: value }));
    if (advance) goTo(step + 1);
  }

  function stored() {
    leadStored.current = true;
    clearDraft(formId);
  }

  function delivered(delivery: 'sent' | 'queued') {
    clearDraft(formId);
    setMoved(true);
    setFinished({ questions, answers, delivery, documentUrl });
  }

  const question = questions[step];
  if (!question) {
    return (
      <>
        {idleWarning}
        <LaterStep />
        <LazyContactStep
          initialValues={contact}
          onChange={onContactChange}
          toLead={(values, context) =>
            buildQuestionnaireSubmission({
              ...context,
              formId,
              questions,
              answers,
              contact: values,
            })
          }
          onDelivered={delivered}
          onStored={stored}
          onBack={() => goTo(step - 1)}
          headingRef={focusHeading}
        />
      </>
    );
  }

  // Found by key, so staff may add and reorder questions around them.
  const showChildDates = question.key === questionKeys.childDates;
  const children = childCount(
    questions.find((q) => q.key === questionKeys.childCount),
    answerByKey(questions, answers, questionKeys.childCount),
  );
  return (
    <>
      {idleWarning}
      {step > 0 ? <LaterStep /> : null}
      {changedNotice ? <ChangedNotice /> : null}
      <ProgressBar current={step + 1} total={questions.length} label="Fortschritt im Fragebogen" />
      <QuestionStep
        key={question.id}
        question={question}
        value={answers[question.id]}
        onAnswer={(value, advance) => answer(question.id, value, advance)}
        onBack={step > 0 ? () => goTo(step - 1) : undefined}
        childDates={showChildDates ? { count: children } : undefined}
        headingRef={focusHeading}
      />
    </>
  );
}

/**
 * Marks a step after the first: the page's title and introduction (PageWithIntro) then step aside,
 * so the question is at the top of a phone's screen. A marker, not a callback: the title is the
 * prerendered page's static HTML outside the questionnaire's island.
 */
function LaterStep() {
  return <span hidden {...{ [laterStepAttribute]: '' }} />;
}

function ChangedNotice() {
  return (
    <div className="mb-4">
      <Alert tone="info">
        Dieser Fragebogen wurde gerade geändert. Bitte beantworten Sie die geänderten Fragen noch
        einmal.
      </Alert>
    </div>
  );
}

function IdleWarning({ secondsLeft }: { secondsLeft: number }) {
  return (
    <div
      role="alertdialog"
      aria-labelledby="leerlauf-titel"
      aria-describedby="leerlauf-text"
      className="fixed inset-x-4 top-24 z-50 mx-auto max-w-md rounded-2xl border-2 border-amber-500 bg-white p-6 shadow-xl"
    >
      <h2 id="leerlauf-titel" className="text-xl font-semibold text-brand-900">
        Sind Sie noch da?
      </h2>
      <p id="leerlauf-text" className="mt-2">
        Ohne Eingabe werden Ihre Angaben in {secondsLeft} Sekunden gelöscht, damit die nächste
        Person neu beginnen kann.
      </p>
      <Button className="mt-4" autoFocus>
        Weiter ausfüllen
      </Button>
    </div>
  );
}
