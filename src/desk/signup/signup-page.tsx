import { PageHeader } from '../../ui/page-header';

export function SignupPage() {
  return (
    <div className="py-8">
      <PageHeader title="Registrieren" />
    </div>
  );
}
