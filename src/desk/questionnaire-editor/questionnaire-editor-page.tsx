import { useParams } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';

export function QuestionnaireEditorPage() {
  // The spec uses the questionnaire's title as its id in this route.
  const { id = '' } = useParams();
  return (
    <div className="py-8">
      <PageHeader title="Fragebogen bearbeiten">
        <p>{id}</p>
      </PageHeader>
    </div>
  );
}
