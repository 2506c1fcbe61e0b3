import { useParams } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';

/** Public route for questionnaires created in Survey Desk (DESIGN 9), beside the two fixed ones. */
export function QuestionnairePage() {
  const { id } = useParams();
  return (
    <div className="py-8">
      <PageHeader title="Fragebogen">
        <p>
          Beantworten Sie ein paar kurze Fragen, und wir melden uns mit einem Angebot bei Ihnen.
        </p>
      </PageHeader>
      <p className="text-sm text-slate-500">Fragebogen: {id}</p>
    </div>
  );
}
