import { PageHeader } from '../../ui/page-header';

export function PkvPage() {
  return (
    <div className="py-8">
      <PageHeader title="Private Krankenversicherung (PKV)">
        <p>
          Beantworten Sie ein paar kurze Fragen, und wir erstellen Ihnen ein kostenloses Angebot für
          Ihre private Krankenversicherung.
        </p>
      </PageHeader>
    </div>
  );
}
