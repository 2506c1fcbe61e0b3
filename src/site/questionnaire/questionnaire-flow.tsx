import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuestions } from '../../api/use-questions';
import type {
  QuestionnaireContact,
  QuestionnaireContactInput,
} from '../../domain/contact-forms.ts';
import {
  buildQuestionnaireSubmission,
  CHILD_DATES_QUESTION_ID,
  submissionContentKey,
  childCount,
  TABALUGA_FORM_ID,
  type AnswerValue,
  type Answers,
  type Question,
  type QuestionnaireSubmission,
} from '../../domain/questionnaire.ts';
import { newClientId } from '../../offline/client-id';
import { clearDraft, loadDraft, saveDraft } from '../../offline/questionnaire-draft';
import { submitLead } from '../../offline/submit-lead';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { ProgressBar } from '../../ui/progress-bar';
import { ContactStep } from './contact-step';
import { QuestionStep } from './question-step';
import { ThankYouStep } from './thank-you-step';

export interface FinishedQuestionnaire {
  questions: Question[];
  answers: Answers;
}

interface QuestionnaireFlowProps {
  formId: number;
  /** Downloads and next steps on the thank-you screen. */
  renderDownloads?: (finished: FinishedQuestionnaire) => ReactNode;
}

/** Loads a questionnaire from the hub, then one question per screen, contact form, thanks. */
export function QuestionnaireFlow({ formId, renderDownloads }: QuestionnaireFlowProps) {
  const state = useQuestions(formId);
  if (state.status === 'loading') {
    return (
      <p role="status" className="py-8 text-slate-600">
        Fragebogen wird geladen …
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <Alert tone="error">
        <p className="font-semibold">Der Fragebogen konnte nicht geladen werden.</p>
        <p className="mt-1">{state.message}</p>
        <Button className="mt-4" onClick={state.retry}>
          Erneut versuchen
        </Button>
      </Alert>
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
      formId={formId}
      questions={state.questions}
      renderDownloads={renderDownloads}
    />
  );
}

function QuestionnaireSteps({
  formId,
  questions,
  renderDownloads,
}: {
  formId: number;
  questions: Question[];
  renderDownloads: QuestionnaireFlowProps['renderDownloads'];
}) {
  const [initial] = useState(() => loadDraft(formId, Date.now()));
  const [step, setStep] = useState(() => Math.min(initial?.step ?? 0, questions.length));
  const [answers, setAnswers] = useState<Answers>(initial?.answers ?? {});
  const [contact, setContact] = useState<Partial<QuestionnaireContactInput>>(
    (initial?.contact as Partial<QuestionnaireContactInput> | undefined) ?? {},
  );
  const [finished, setFinished] = useState<FinishedQuestionnaire>();
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string>();
  // The lead as first sent: a retry of unchanged data sends it again byte for byte (same
  // client_id, same timestamps), so a lead whose reply was lost is not stored twice.
  const pending = useRef<{ key: string; submission: QuestionnaireSubmission }>(undefined);

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

  useEffect(() => {
    if (!finished) saveDraft(formId, { step, answers, contact }, Date.now());
  }, [formId, step, answers, contact, finished]);

  const onContactChange = useCallback(
    (values: QuestionnaireContactInput) => setContact(values),
    [],
  );

  if (finished) {
    return <ThankYouStep headingRef={focusHeading}>{renderDownloads?.(finished)}</ThankYouStep>;
  }

  function answer(questionId: number, value: AnswerValue, advance: boolean) {
    setAnswers((current) => ({ ...current, [questionId]: value }));
    if (advance) goTo(step + 1);
  }

  async function send(values: QuestionnaireContact) {
    setSending(true);
    setSendError(undefined);
    const built = buildQuestionnaireSubmission({
      clientId: pending.current?.submission.client_id ?? newClientId(),
      formId,
      questions,
      answers,
      contact: values,
      now: new Date(),
    });
    const key = submissionContentKey(built);
    if (pending.current?.key !== key) {
      // Changed data after a failed send is a new lead, under a new id.
      const submission = pending.current ? { ...built, client_id: newClientId() } : built;
      pending.current = { key, submission };
    }
    const outcome = await submitLead(pending.current.submission);
    setSending(false);
    if (outcome.status === 'sent') {
      clearDraft(formId);
      setMoved(true);
      setFinished({ questions, answers });
    } else {
      setSendError(outcome.message);
    }
  }

  const question = questions[step];
  if (!question) {
    return (
      <ContactStep
        initialValues={contact}
        onChange={onContactChange}
        onSubmit={send}
        onBack={() => goTo(step - 1)}
        sending={sending}
        sendError={sendError}
        headingRef={focusHeading}
      />
    );
  }

  const firstAnswer = answers[questions[0]!.id];
  const showChildDates = formId === TABALUGA_FORM_ID && question.id === CHILD_DATES_QUESTION_ID;
  return (
    <>
      <ProgressBar current={step + 1} total={questions.length} label="Fortschritt im Fragebogen" />
      <QuestionStep
        key={question.id}
        question={question}
        value={answers[question.id]}
        onAnswer={(value, advance) => answer(question.id, value, advance)}
        onBack={step > 0 ? () => goTo(step - 1) : undefined}
        childDates={showChildDates ? { count: childCount(firstAnswer) } : undefined}
        headingRef={focusHeading}
        today={new Date().toISOString().slice(0, 10)}
      />
    </>
  );
}
