import { Link } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';

interface OfferCard {
  title: string;
  text: string;
  to: string;
  action: string;
}

const offers: readonly OfferCard[] = [
  {
    title: 'Tabaluga – Vorsorge für Ihre Kinder',
    text: 'Finanzielle Sicherheit und ein guter Start ins Leben: Vorsorge, die mit Ihren Kindern wächst.',
    to: '/tiptoptabaluga',
    action: 'Kostenloses Angebot anfordern',
  },
  {
    title: 'Private Krankenversicherung',
    text: 'Leistungen nach Ihren Wünschen, vom Einbettzimmer bis zur Chefarztbehandlung.',
    to: '/pkv',
    action: 'Kostenloses Angebot anfordern',
  },
  {
    title: 'KFZ-Versicherung',
    text: 'Jetzt wechseln und sparen: Wir rufen Sie zurück und vergleichen für Sie.',
    to: '/universa/kfz',
    action: 'Rückruf anfordern',
  },
  {
    title: 'Versicherungscheck',
    text: 'Wir prüfen Ihre bestehenden Verträge und beraten Sie persönlich und kostenlos.',
    to: '/universa/kontakt',
    action: 'Kontaktformular öffnen',
  },
];

export function LandingPage() {
  return (
    <div className="py-8">
      <PageHeader title="Willkommen bei Ihrer Versicherungsagentur">
        <p>
          Wir beraten Sie persönlich, verständlich und kostenlos. Wählen Sie ein Thema, beantworten
          Sie ein paar kurze Fragen, und wir melden uns mit einem kostenlosen Angebot bei Ihnen.
        </p>
      </PageHeader>

      <ul className="grid gap-6 sm:grid-cols-2">
        {offers.map((offer) => (
          <li
            key={offer.to}
            className="flex flex-col rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
          >
            <h2 className="text-xl font-semibold text-brand-800">{offer.title}</h2>
            <p className="mt-2 flex-1 text-slate-600">{offer.text}</p>
            <Link
              to={offer.to}
              className="mt-6 self-start rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
            >
              {offer.action}
              {/* Several cards share a button text; the hidden part tells them apart for screen readers. */}
              <span className="sr-only">: {offer.title}</span>
            </Link>
          </li>
        ))}
      </ul>

      <p className="mt-10 text-sm text-slate-500">
        Mehr erfahren Sie in unseren{' '}
        <Link to="/agb" className="underline">
          AGB
        </Link>{' '}
        und in der{' '}
        <Link to="/datenschutz" className="underline">
          Datenschutzerklärung
        </Link>
        .
      </p>
    </div>
  );
}
