import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { ListedForm } from '../api/forms.ts';
import { berlinDate } from '../../domain/calendar.ts';
import { deskQuestionnairePath } from '../../domain/routes.ts';
import { isHttpUrl } from '../shared/form-details-schema.ts';
import { FormPublicLink } from '../shared/form-public-link.tsx';

const count = new Intl.NumberFormat('de-DE');

export const responsesLabel = (responses: number) =>
  responses === 1 ? '1 Antwort' : `${count.format(responses)} Antworten`;

/** The image as the card's backdrop; JSON's quoting keeps the URL one CSS string. */
const backdrop = (image: string | null) =>
  image && isHttpUrl(image)
    ? { backgroundImage: `url(${JSON.stringify(image)})`, backgroundSize: 'cover' }
    : undefined;

export function QuestionnaireCard({ form }: { form: ListedForm }) {
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col overflow-hidden rounded-lg bg-white shadow"
    >
      <div
        className="relative flex min-h-36 items-end bg-slate-700 bg-center"
        style={backdrop(form.image)}
      >
        {/* A dark veil keeps the white title readable on any image. */}
        <div className="flex w-full items-end justify-between gap-3 bg-slate-900/70 p-4">
          <h2 id={titleId} className="break-words text-xl font-bold text-white">
            {form.title}
          </h2>
          <Link
            to={deskQuestionnairePath(form.title)}
            aria-label={`Fragebogen ${form.title} bearbeiten`}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-white text-brand-800 hover:bg-brand-50"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-6">
              <path
                fillRule="evenodd"
                d="M3 10a.75.75 0 0 1 .75-.75h10.638l-3.96-3.71a.75.75 0 1 1 1.025-1.095l5.25 4.917a.75.75 0 0 1 0 1.095l-5.25 4.917a.75.75 0 0 1-1.025-1.095l3.96-3.712H3.75A.75.75 0 0 1 3 10Z"
                clipRule="evenodd"
              />
            </svg>
          </Link>
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <p className="text-slate-700">{form.description}</p>
        <dl className="mt-auto grid grid-cols-2 gap-2 text-sm">
          <div>
            <dt className="text-slate-600">Erstellt am</dt>
            <dd className="font-medium text-slate-900">{berlinDate(form.created_at)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Antworten</dt>
            <dd className="font-medium text-slate-900">{responsesLabel(form.responseCount)}</dd>
          </div>
        </dl>
        <FormPublicLink formId={form.id} />
      </div>
    </article>
  );
}
