import { PageHeader } from '../../ui/page-header';

export function KfzPage() {
  return (
    <div className="py-8">
      <PageHeader title="KFZ-Versicherung: Rückruf anfordern">
        <p>
          Sie möchten Ihre KFZ-Versicherung wechseln? Wir rufen Sie zurück und beraten Sie
          kostenlos.
        </p>
      </PageHeader>
    </div>
  );
}
