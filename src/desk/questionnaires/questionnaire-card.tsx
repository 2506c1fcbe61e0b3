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
const backdrop = (image: string) => ({
  backgroundImage: `url(${JSON.stringify(image)})`,
  backgroundSize: 'cover',
});

/**
 * A questionnaire on the overview. With an image the title sits on it behind a dark veil; without
 * one the card has no image area at all (an empty dark box would read as a broken image).
 */
export function QuestionnaireCard({ form }: { form: ListedForm }) {
  const titleId = useId();
  const image = form.image && isHttpUrl(form.image) ? form.image : null;
  const editLink = (
    <Link
      to={deskQuestionnairePath(form.title)}
      aria-label={`Fragebogen ${form.title} bearbeiten`}
      className={`inline-flex size-11 shrink-0 items-center justify-center rounded-full ${
        image
          ? 'bg-white text-brand-800 hover:bg-brand-50'
          : 'bg-brand-700 text-white hover:bg-brand-800'
      }`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-6">
        <path
          fillRule="evenodd"
          d="M3 10a.75.75 0 0 1 .75-.75h10.638l-3.96-3.71a.75.75 0 1 1 1.025-1.095l5.25 4.917a.75.75 0 0 1 0 1.095l-5.25 4.917a.75.75 0 0 1-1.025-1.095l3.96-3.712H3.75A.75.75 0 0 1 3 10Z"
          clipRule="evenodd"
        />
      </svg>
    </Link>
  );
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col overflow-hidden rounded-lg bg-white shadow"
    >
      {image ? (
        <div
          className="relative flex min-h-36 items-end bg-slate-700 bg-center"
          style={backdrop(image)}
        >
          {/* A dark veil keeps the white title readable on any image. */}
          <div className="flex w-full items-end justify-between gap-3 bg-slate-900/70 p-4">
            <h2 id={titleId} className="text-xl font-bold break-words text-white">
              {form.title}
            </h2>
            {editLink}
          </div>
        </div>
      ) : (
        <div className="flex items-start justify-between gap-3 border-b border-slate-200 p-4">
          <h2 id={titleId} className="text-xl font-bold break-words text-slate-900">
            {form.title}
          </h2>
          {editLink}
        </div>
      )}
      <div className="flex flex-1 flex-col gap-3 p-4">
        <p className="text-slate-700">{form.description}</p>
        <p className="mt-auto flex flex-wrap justify-between gap-2 text-sm">
          <span className="font-semibold text-slate-900">{responsesLabel(form.responseCount)}</span>
          <span className="text-slate-600">Erstellt am {berlinDate(form.created_at)}</span>
        </p>
        <FormPublicLink formId={form.id} />
      </div>
    </article>
  );
}
