// The text of the sample PDFs the public site links to (spec section 7, 'Other'). They are
// clearly marked samples: the agent replaces them with the insurer's real documents, either by
// editing this text and running `npm run pdfs`, or by dropping real PDFs in their place.

export interface SampleDocument {
  /** Path under public/, as the site links it. */
  path: string;
  title: string;
  paragraphs: string[];
}

const sampleNotice =
  'MUSTERDOKUMENT: Dieses Dokument ist ein Platzhalter. Ihr Versicherungsvermittler ersetzt es durch die Unterlagen des Versicherers.';

function tabalugaOffer(amount: number): SampleDocument {
  const total = (amount * 12 * 18).toLocaleString('de-DE');
  return {
    path: `universa/tabaluga/angebot-${amount}.pdf`,
    title: `Tabaluga Kindervorsorge: Musterangebot ${amount} € monatlich`,
    paragraphs: [
      sampleNotice,
      `Sparbeitrag: ${amount} € im Monat je Kind, Laufzeit bis zum 18. Geburtstag.`,
      `Eingezahlte Beiträge bei Beginn mit der Geburt: 18 Jahre × 12 Monate × ${amount} € = ${total} €. Die tatsächliche Leistung hängt von Laufzeit, Kapitalmarkt und Tarif ab und steht in Ihrem persönlichen Angebot.`,
      'Beiträge lassen sich jederzeit erhöhen, senken oder pausieren. Großeltern und Paten können Zuzahlungen leisten.',
      'Dieses Musterangebot ist unverbindlich. Ein Vertrag kommt erst mit Antrag und Annahme durch den Versicherer zustande.',
    ],
  };
}

export const sampleDocuments: SampleDocument[] = [
  {
    path: 'universa/tabaluga/flyer.pdf',
    title: 'Tabaluga Kindervorsorge: Flyer',
    paragraphs: [
      sampleNotice,
      'Ausbildung, Führerschein, die erste eigene Wohnung: Mit einem Sparplan ab 25 € im Monat legen Sie früh den Grundstein für die Zukunft Ihrer Kinder.',
      'Flexibel: Beitrag anpassen, pausieren oder zuzahlen. Sicher: Die Vorsorge gehört Ihrem Kind. Persönlich: Wir beraten Sie kostenlos und unverbindlich.',
      'Fordern Sie Ihr persönliches Angebot über den Tabaluga-Fragebogen auf unserer Website an.',
    ],
  },
  ...[25, 50, 100, 150].map(tabalugaOffer),
  {
    path: 'universa/pkv/info.pdf',
    title: 'Private Krankenversicherung: Informationen',
    paragraphs: [
      sampleNotice,
      'Privat versichern können sich Angestellte mit einem Einkommen über der Versicherungspflichtgrenze, Selbstständige, Freiberufler, Beamte und Studierende.',
      'Die Leistungen sind vertraglich garantiert: zum Beispiel Chefarztbehandlung, Ein- oder Zweibettzimmer, hochwertiger Zahnersatz und Heilpraktiker, je nach Tarif.',
      'Der Beitrag richtet sich nach Eintrittsalter, Gesundheitszustand und gewähltem Tarif, nicht nach dem Einkommen. Ein Selbstbehalt senkt den Beitrag.',
      'Ihre Gesundheitsangaben besprechen wir persönlich mit Ihnen. Bei Beschwerden hilft der Ombudsmann Private Kranken- und Pflegeversicherung (www.pkv-ombudsmann.de).',
    ],
  },
  {
    path: 'universa/pkv/angebot.pdf',
    title: 'Private Krankenversicherung: Musterangebot',
    paragraphs: [
      sampleNotice,
      'Ihr persönliches Angebot erstellen wir nach einem kurzen Gespräch auf Grundlage Ihrer Angaben im Fragebogen.',
      'Beispieltarif: ambulant 100 %, stationär Zweibettzimmer mit Chefarztbehandlung, Zahnbehandlung 100 %, Zahnersatz 80 %, jährlicher Selbstbehalt 500 €.',
      'Dieses Musterangebot ist unverbindlich. Ein Vertrag kommt erst mit Antrag, Gesundheitsprüfung und Annahme durch den Versicherer zustande.',
    ],
  },
];
