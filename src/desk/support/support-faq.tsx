import {
  Disclosure,
  DisclosureButton,
  DisclosurePanel,
  Tab,
  TabGroup,
  TabList,
  TabPanel,
  TabPanels,
} from '@headlessui/react';

interface Faq {
  question: string;
  answer: string;
}

// The help texts, grouped by the spec's three tabs (default Kunden). They describe what the desk
// does now: nothing is "unlocked via support" any more (answers page, images, PDF, analysis, export).
const topics: { tab: string; faqs: Faq[] }[] = [
  {
    tab: 'Kunden',
    faqs: [
      {
        question: 'Warum sehe ich keine Kundendaten?',
        answer:
          'Das Ansehen von Kundendaten ist möglicherweise für dein Konto noch nicht freigeschaltet. Ein Admin muss dein Konto freigeben; wende dich sonst an den Support.',
      },
      {
        question: 'Wo sehe ich die Antworten eines Kunden?',
        answer:
          'Öffne in „Kunden“ die Kunden Details eines Kunden: Die Schaltfläche „Antworten“ führt zu allen seinen Anfragen mit den Antworten, der Quelle (Website oder Messe-Tablet) und der Einwilligung.',
      },
      {
        question: 'Kann ich Kundendaten ändern?',
        answer:
          'Die persönlichen Daten eines Kunden kannst du in den Kunden Details bearbeiten. Die Antworten aus den Fragebögen bleiben unverändert.',
      },
    ],
  },
  {
    tab: 'Fragebogen',
    faqs: [
      {
        question: 'Wie lege ich einen neuen Fragebogen an?',
        answer:
          'Unter „Fragebogen“ öffnet die Karte „Hinzufügen“ ein Formular für Titel und Beschreibung. Fragen fügst du danach im Fragebogen selbst hinzu.',
      },
      {
        question: 'Kann ich Bilder oder ein PDF-Angebot hinterlegen?',
        answer:
          'Ja. Im Fragebogen hinterlegst du links ein Bild (als Adresse oder hochgeladen) und ein PDF-Angebot, das Besucher am Ende des Fragebogens herunterladen können.',
      },
    ],
  },
  {
    tab: 'Analyse',
    faqs: [
      {
        question: 'Ab wann gibt es Auswertungen?',
        answer:
          'Sofort: „Analyse“ zeigt die Anfragen im Zeitverlauf, die Verteilung der Antworten je Frage, den Anteil der Fragebogen-Anfragen mit Wunsch nach weiteren Angeboten und die Wartezeit der offline erfassten Anfragen. Aussagekräftig werden die Zahlen nach rund 30 Tagen; bis dahin steht ein Hinweis neben den Diagrammen.',
      },
      {
        question: 'Kann ich die Daten in Excel weiterverarbeiten?',
        answer:
          'Ja. „Exportieren“ in „Kunden“ und in „Analyse“ lädt die Anfragen der aktuellen Auswahl als CSV-Datei (für Excel, mit Semikolon) oder als Excel-Datei (XLSX) herunter. Admins dürfen immer exportieren, Mitarbeitende, wenn ein Admin es unter „Mitarbeiter“ erlaubt. Jeder Export wird protokolliert.',
      },
    ],
  },
];

const tabClass =
  'min-h-11 rounded-lg px-4 py-2 font-semibold text-slate-800 data-[selected]:bg-brand-700 data-[selected]:text-white data-[hover]:underline';

export function SupportFaq() {
  return (
    <section aria-labelledby="faq-ueberschrift" className="rounded-lg bg-white p-6 shadow">
      <h2 id="faq-ueberschrift" className="mb-4 text-xl font-bold text-slate-900">
        Häufige Fragen
      </h2>
      <TabGroup>
        <TabList aria-label="Themen" className="mb-4 flex flex-wrap gap-2">
          {topics.map((topic) => (
            <Tab key={topic.tab} className={tabClass}>
              {topic.tab}
            </Tab>
          ))}
        </TabList>
        <TabPanels>
          {topics.map((topic) => (
            <TabPanel key={topic.tab} className="divide-y divide-slate-200">
              {topic.faqs.map((faq) => (
                <Disclosure key={faq.question} as="div" className="py-2">
                  <DisclosureButton className="group flex min-h-11 w-full items-center justify-between gap-4 text-left font-semibold text-slate-900">
                    {faq.question}
                    <span
                      aria-hidden="true"
                      className="transition-transform group-data-[open]:rotate-180"
                    >
                      ▾
                    </span>
                  </DisclosureButton>
                  <DisclosurePanel className="pt-1 pb-2 text-slate-700">
                    {faq.answer}
                  </DisclosurePanel>
                </Disclosure>
              ))}
            </TabPanel>
          ))}
        </TabPanels>
      </TabGroup>
    </section>
  );
}
