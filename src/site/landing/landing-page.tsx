import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { siteConfig, type LinkTarget } from '../../config/site.ts';
import { sitePaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';

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
    to: sitePaths.tabaluga,
    action: 'Kostenloses Angebot anfordern',
  },
  {
    title: 'Private Krankenversicherung',
    text: 'Leistungen nach Ihren Wünschen, vom Einbettzimmer bis zur Chefarztbehandlung.',
    to: sitePaths.pkv,
    action: 'Kostenloses Angebot anfordern',
  },
  {
    title: 'KFZ-Versicherung',
    text: 'Jetzt wechseln und sparen: Wir rufen Sie zurück und vergleichen für Sie.',
    to: sitePaths.kfz,
    action: 'Rückruf anfordern',
  },
  {
    title: 'Versicherungscheck',
    text: 'Wir prüfen Ihre bestehenden Verträge und beraten Sie persönlich und kostenlos.',
    to: sitePaths.contactAlias,
    action: 'Kontaktformular öffnen',
  },
];

interface OnlineApplication {
  link: LinkTarget;
  text: string;
}

const { externalLinks } = siteConfig;

const onlineApplications: readonly OnlineApplication[] = [
  {
    link: externalLinks.liabilityInsurance,
    text: 'Schutz, wenn Ihnen im Alltag ein Missgeschick passiert und andere zu Schaden kommen.',
  },
  {
    link: externalLinks.dentalInsurance,
    text: 'Mehr als die gesetzliche Kasse zahlt: Zuschüsse für Zahnersatz, Implantate und professionelle Zahnreinigung.',
  },
  {
    link: externalLinks.publicHealthInsurer,
    text: 'Mitglied einer gesetzlichen Krankenkasse werden: den Antrag online ausfüllen und bequem absenden.',
  },
];

const cardClass = 'flex flex-col rounded-lg border border-slate-200 bg-white p-6 shadow-sm';
const buttonClass =
  'mt-6 inline-flex items-center gap-2 self-start rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800';

function Card({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <li className={cardClass}>
      <h3 className="text-xl font-semibold text-brand-800">{title}</h3>
      <p className="mt-2 flex-1 text-slate-600">{text}</p>
      {children}
    </li>
  );
}

/** Marks a link that leaves the site: an icon for the eye, a hidden note for screen readers. */
function NewTabHint({ className = '' }: { className?: string }) {
  return (
    <>
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className={`inline-block h-4 w-4 shrink-0 align-text-bottom ${className}`}
        fill="none"
      >
        <path
          d="M11 3h6v6M17 3l-8 8M8 5H4v11h11v-4"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="sr-only"> (öffnet in neuem Tab)</span>
    </>
  );
}

export function LandingPage() {
  usePageMeta(publicPages.landing);

  return (
    <div className="py-8">
      <PageHeader title="Willkommen bei Ihrer Versicherungsagentur">
        <p>
          Wir beraten Sie persönlich, verständlich und kostenlos. Wählen Sie ein Thema, beantworten
          Sie ein paar kurze Fragen, und wir melden uns mit einem kostenlosen Angebot bei Ihnen.
        </p>
      </PageHeader>

      <section aria-labelledby="angebote">
        <h2 id="angebote" className="text-2xl font-semibold text-brand-900">
          Kostenlos beraten lassen
        </h2>
        <ul className="mt-4 grid gap-6 sm:grid-cols-2">
          {offers.map((offer) => (
            <Card key={offer.to} title={offer.title} text={offer.text}>
              <Link to={offer.to} className={buttonClass}>
                {offer.action}
                {/* Several cards share a button text; the hidden part tells them apart for screen readers. */}
                <span className="sr-only">: {offer.title}</span>
              </Link>
            </Card>
          ))}
        </ul>
      </section>

      <section aria-labelledby="online-beantragen" className="mt-12">
        <h2 id="online-beantragen" className="text-2xl font-semibold text-brand-900">
          Direkt online beantragen
        </h2>
        <p className="mt-2 max-w-prose text-slate-600">
          Diese Tarife schließen Sie ohne Umweg direkt beim Anbieter ab. Die Links führen auf dessen
          Website und öffnen sich in einem neuen Tab.
        </p>
        <ul className="mt-4 grid gap-6 sm:grid-cols-2">
          {onlineApplications.map(({ link, text }) => (
            <Card key={link.href} title={link.label} text={text}>
              <a href={link.href} target="_blank" rel="noopener noreferrer" className={buttonClass}>
                Jetzt online beantragen
                <span className="sr-only">: {link.label}</span>
                <NewTabHint />
              </a>
            </Card>
          ))}
        </ul>
      </section>

      <p className="mt-12 max-w-prose text-sm text-slate-600">
        Mehr erfahren Sie in unseren{' '}
        <Link to={sitePaths.terms} className="underline underline-offset-2 hover:text-brand-700">
          AGB
        </Link>{' '}
        und in unserer{' '}
        <Link to={sitePaths.privacy} className="underline underline-offset-2 hover:text-brand-700">
          Datenschutzerklärung
        </Link>
        . Für Online-Anträge gelten zusätzlich die{' '}
        <a
          href={externalLinks.insurerPrivacyPolicy.href}
          target="_blank"
          rel="noopener noreferrer"
          className="underline underline-offset-2 hover:text-brand-700"
        >
          {externalLinks.insurerPrivacyPolicy.label}
          <NewTabHint className="ml-1" />
        </a>
        .
      </p>
    </div>
  );
}
