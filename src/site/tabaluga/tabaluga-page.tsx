import { PageHeader } from '../../ui/page-header';

export function TabalugaPage() {
  return (
    <div className="py-8">
      <PageHeader title="Tabaluga – Vorsorge für Ihre Kinder">
        <p>
          Beantworten Sie ein paar kurze Fragen, und wir erstellen Ihnen ein kostenloses Angebot für
          die Zukunft Ihrer Kinder.
        </p>
      </PageHeader>
    </div>
  );
}
