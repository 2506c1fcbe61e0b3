import { PageHeader } from '../../ui/page-header';

export function QuestionnairesPage() {
  return (
    <div className="py-8">
      <PageHeader title="Fragebogen" />
    </div>
  );
}
