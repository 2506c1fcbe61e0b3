import { PageHeader } from '../../ui/page-header';

export function SigninPage() {
  return (
    <div className="py-8">
      <PageHeader title="Anmelden" />
    </div>
  );
}
