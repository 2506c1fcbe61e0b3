import { useParams } from 'react-router-dom';
import { deskCustomerAnswersPath } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function CustomerAnswersPage() {
  const id = Number(useParams().id);
  return (
    <DeskScreen
      heading="Antworten"
      meta={{
        title: 'Antworten – Survey Desk',
        description:
          'Alle Anfragen eines Kunden mit Fragebogen, Datum, Quelle, Einwilligung und jeder Antwort.',
        path: deskCustomerAnswersPath(id),
      }}
    />
  );
}
