import { PageHeader } from '../../ui/page-header';

export function ContactPage() {
  return (
    <div className="py-8">
      <PageHeader title="Kostenlosen Versicherungscheck buchen">
        <p>
          Wir prüfen Ihre bestehenden Versicherungen und zeigen Ihnen, wo Sie besser oder günstiger
          versichert sein können.
        </p>
      </PageHeader>
    </div>
  );
}
