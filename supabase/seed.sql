-- The two questionnaires the public site links to: form 1 (Tabaluga, saving for children)
-- and form 2 (PKV, private health insurance). The Tabaluga flow finds its three
-- questions by key (child count, child dates, offer amount), so staff may add and reorder
-- questions around them. Sample content the agent edits in Survey Desk. The two birth questions
-- give Analyse a birth decade (analysis_bucket); every other input question only a count.

insert into public.forms (id, title, description) values
  (1, 'Tabaluga', 'Vorsorge für Ihre Kinder: In drei Fragen zu Ihrem persönlichen Sparplan für Ausbildung, Führerschein oder den Start ins eigene Leben.'),
  (2, 'PKV', 'Private Krankenversicherung: Wenige Fragen zu Ihrer Situation und Ihren Wünschen, danach erhalten Sie ein unverbindliches Angebot.');

insert into public.questions (id, form_id, sequence, type, question, options, "multipleAnswers", required, information, key, analysis_bucket) values
  (1, 1, 1, 'multiple-choice', 'Wie viele Kinder möchten Sie absichern?',
    '{"1": "Eins", "2": "Zwei", "3": "Drei oder mehr"}', false, true,
    'Für jedes Kind kann ein eigener Sparplan angelegt werden.', 'tabaluga_child_count', null),
  (2, 1, 2, 'input', 'Wann sind Ihre Kinder geboren?',
    '{}', false, true,
    'Das Geburtsdatum bestimmt die Laufzeit bis zum 18. Geburtstag.', 'tabaluga_child_dates', 'birth_decade'),
  (3, 1, 3, 'multiple-choice', 'Welchen monatlichen Betrag möchten Sie pro Kind sparen?',
    '{"1": "25 €", "2": "50 €", "3": "100 €", "4": "150 €"}', false, true,
    'Der Betrag lässt sich später jederzeit anpassen.', 'tabaluga_offer_amount', null),
  (4, 2, 1, 'multiple-choice', 'Wie sind Sie derzeit beschäftigt?',
    '{"1": "Angestellt mit Einkommen über der Versicherungspflichtgrenze", "2": "Selbstständig oder freiberuflich", "3": "Beamtin oder Beamter", "4": "Studierend", "5": "Sonstiges"}',
    false, true, 'Ob Sie sich privat versichern können, hängt vor allem von Ihrer beruflichen Situation ab.', null, null),
  (5, 2, 2, 'multiple-choice', 'Wie sind Sie aktuell krankenversichert?',
    '{"1": "Gesetzlich pflichtversichert", "2": "Gesetzlich freiwillig versichert", "3": "Privat versichert", "4": "Familienversichert"}',
    false, true, null, null, null),
  (6, 2, 3, 'multiple-choice', 'Welche Leistungen sind Ihnen besonders wichtig?',
    '{"1": "Chefarztbehandlung", "2": "Ein- oder Zweibettzimmer im Krankenhaus", "3": "Hochwertiger Zahnersatz", "4": "Heilpraktiker und Naturheilverfahren", "5": "Brillen und Kontaktlinsen", "6": "Beitragsrückerstattung"}',
    true, false, 'Mehrfachauswahl möglich.', null, null),
  (7, 2, 4, 'multiple-choice', 'Welchen jährlichen Selbstbehalt können Sie sich vorstellen?',
    '{"1": "Keinen Selbstbehalt", "2": "Bis 500 €", "3": "Bis 1.000 €", "4": "Mehr als 1.000 €"}',
    false, true, 'Ein höherer Selbstbehalt senkt den monatlichen Beitrag.', null, null),
  (8, 2, 5, 'input', 'In welchem Jahr sind Sie geboren?',
    '{"1": "z. B. 1985"}', false, true, 'Das Eintrittsalter bestimmt den Beitrag.', null, 'birth_decade'),
  (9, 2, 6, 'multiple-choice', 'Ab wann wünschen Sie Versicherungsschutz?',
    '{"1": "So bald wie möglich", "2": "In den nächsten drei Monaten", "3": "Später oder noch offen"}',
    false, true, null, null, null),
  (10, 2, 7, 'input', 'Gibt es etwas, das wir für Ihr Angebot wissen sollten?',
    '{"1": "z. B. Wünsche oder Fragen an uns"}', false, false,
    'Bitte keine Angaben zu Ihrer Gesundheit: Diese besprechen wir persönlich mit Ihnen.', null, null);

-- Explicit ids leave the identity counters behind; move them past the seeded rows.
select setval(pg_get_serial_sequence('public.forms', 'id'), (select max(id) from public.forms));
select setval(pg_get_serial_sequence('public.questions', 'id'), (select max(id) from public.questions));
