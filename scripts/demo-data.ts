import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';

// Demo customers with their leads and answers, so that a new installation shows a working Survey
// Desk. Written through the Supabase API with the service role (the running server's gateway, or
// a hosted project), never around it: the same triggers and checks apply as to real data.
//
// Every demo address ends in `@demo.example` (a reserved name that can never receive mail), which
// is how `--remove` finds them again.

/**
 * A client with the service role (it bypasses row-level security: the seed writes customers and
 * leads as the hub does). Node 20 has no WebSocket of its own, so realtime gets `ws`.
 */
export function serviceClient(url: string, serviceRoleKey: string): SupabaseClient {
  return createClient(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as never },
  });
}

export const demoDomain = 'demo.example';
export const maxDemoCount = 100_000;

const firstNames = (
  'Anna;Lena;Marie;Sophie;Laura;Julia;Sarah;Katharina;Hannah;Lea;Emma;Mia;Johanna;' +
  'Clara;Paula;Jana;Ines;Birgit;Sabine;Monika;Lukas;Jonas;Leon;Felix;Maximilian;' +
  'Paul;Elias;Tim;Niklas;Jan;Thomas;Michael;Andreas;Stefan;Markus;Christian;Jürgen;' +
  'Uwe;Björn;Özgür'
).split(';');
const lastNames = (
  'Müller;Schmidt;Schneider;Fischer;Weber;Meyer;Wagner;Becker;Schulz;Hoffmann;' +
  'Schäfer;Koch;Bauer;Richter;Klein;Wolf;Schröder;Neumann;Schwarz;Zimmermann;Braun;' +
  'Krüger;Hofmann;Hartmann;Lange;Schmitt;Werner;Krause;Meier;Lehmann;Schmid;' +
  'Schulze;Maier;Köhler;Herrmann;König;Walter;Mayer;Huber;Kaiser;Fuchs;Peters;Lang;' +
  'Scholz;Möller;Weiß;Jung;Hahn;Yılmaz;Nowak'
).split(';');
/** 'postcode city' */
const places = (
  '10115 Berlin;20095 Hamburg;80331 München;50667 Köln;60311 Frankfurt am Main;' +
  '70173 Stuttgart;40213 Düsseldorf;04109 Leipzig;44135 Dortmund;45127 Essen;' +
  '28195 Bremen;01067 Dresden;30159 Hannover;90402 Nürnberg;47051 Duisburg;' +
  '44787 Bochum;42103 Wuppertal;33602 Bielefeld;53111 Bonn;48143 Münster;' +
  '76133 Karlsruhe;68159 Mannheim;86150 Augsburg;65183 Wiesbaden;' +
  '41061 Mönchengladbach;38100 Braunschweig;24103 Kiel;14467 Potsdam;99084 Erfurt;' +
  '18055 Rostock'
)
  .split(';')
  .map((place) => [place.slice(0, 5), place.slice(6)] as const);
const streets = (
  'Hauptstraße;Schulstraße;Gartenstraße;Bahnhofstraße;Dorfstraße;Bergstraße;' +
  'Birkenweg;Lindenstraße;Kirchstraße;Waldstraße;Ringstraße;Schillerstraße;' +
  'Goethestraße;Am Markt;Mühlenweg;Rosenstraße'
).split(';');
const callTimes = ['Morgens', 'Mittags', 'Nachmittags', 'Abends'];

export interface DemoQuestion {
  id: number;
  form_id: number;
  type: 'multiple-choice' | 'input';
  options: Record<string, string>;
  multipleAnswers: boolean;
  key: string | null;
}

/** A small seeded generator (mulberry32): the same seed gives the same demo data. */
export function demoRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)]!;
  return { next, int, pick };
}
type Random = ReturnType<typeof demoRandom>;

const day = 24 * 60 * 60 * 1000;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The answer a visitor might give: an option, several, a date list or a short text. */
export function demoAnswer(question: DemoQuestion, random: Random, now: number): string {
  const options = Object.entries(question.options)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, value]) => value);
  if (question.key === 'tabaluga_child_dates') {
    const count = random.int(1, 3);
    return Array.from({ length: count }, () => isoDate(now - random.int(30, 17 * 365) * day)).join(
      ', ',
    );
  }
  if (question.type === 'input') {
    if (/jahr|geboren/i.test(options[0] ?? '') || /19\d\d/.test(options[0] ?? '')) {
      return String(random.int(1960, 2004));
    }
    return random.next() < 0.7 ? '' : random.pick(['Bitte Rückruf am Abend', 'Familientarif?']);
  }
  if (options.length === 0) return '';
  if (question.multipleAnswers) {
    const chosen = options.filter(() => random.next() < 0.4);
    return (chosen.length > 0 ? chosen : [random.pick(options)]).join(', ');
  }
  return random.pick(options);
}

interface DemoCustomer {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  adress: string;
  postcode: string;
  city: string;
  created_at: string;
}

function demoCustomer(index: number, random: Random, now: number, runTag: string): DemoCustomer {
  const first = random.pick(firstNames);
  const last = random.pick(lastNames);
  const [postcode, city] = random.pick(places);
  const local = `${first}.${last}`
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z.]/g, '');
  return {
    first_name: first,
    last_name: last,
    email: `${local}.${runTag}${index}@${demoDomain}`,
    phone: `+49 1${random.int(51, 79)} ${random.int(1_000_000, 9_999_999)}`,
    adress: `${random.pick(streets)} ${random.int(1, 120)}`,
    postcode,
    city,
    created_at: new Date(now - random.int(0, 365) * day - random.int(0, day)).toISOString(),
  };
}

/** One lead of a demo customer: a questionnaire (with answers), a KFZ callback or a contact. */
function demoResponse(
  customer: DemoCustomer & { id: number },
  random: Random,
  now: number,
  formIds: number[],
) {
  const roll = random.next();
  const source = roll < 0.65 ? 'questionnaire' : roll < 0.82 ? 'kfz' : 'contact';
  const formId = source === 'questionnaire' ? random.pick(formIds) : 1;
  const fairTablet = random.next() < 0.15;
  const received = now - random.int(0, 120) * day - random.int(0, day);
  // A lead from the fair tablet waits on the device until the tablet is online again.
  const captured = fairTablet ? received - random.int(60, 6 * 60 * 60) * 1000 : received;
  return {
    client_id: crypto.randomUUID(),
    payload_hash: 'demo',
    form_id: formId,
    user_id: customer.id,
    source,
    channel: fairTablet ? 'fair_tablet' : 'web',
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    phone: customer.phone,
    adress: customer.adress,
    postcode: customer.postcode,
    city: customer.city,
    call_time: source === 'kfz' ? random.pick(callTimes) : null,
    offer_info: source === 'questionnaire' ? random.next() < 0.6 : true,
    terms_accepted: true,
    data_processing_consent: true,
    consent_version: '2026-11-22',
    create_date: new Date(captured).toISOString(),
    changed_date: new Date(captured).toISOString(),
    captured_at: new Date(captured).toISOString(),
    received_at: new Date(received).toISOString(),
    waited_offline: fairTablet,
    create_user: `${customer.first_name} ${customer.last_name}`,
    changed_user: `${customer.first_name} ${customer.last_name}`,
  };
}

async function must<T>(call: PromiseLike<{ data: T | null; error: { message: string } | null }>) {
  const { data, error } = await call;
  if (error) throw new Error(error.message);
  return data as T;
}

export interface SeedOptions {
  count: number;
  /** Rows per request. */
  chunk?: number;
  seed?: number;
  now?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Adds `count` demo customers, each with one or two leads and their answers. */
export async function seedDemo(supabase: SupabaseClient, options: SeedOptions) {
  const { count, chunk = 1000, now = Date.now() } = options;
  if (!Number.isInteger(count) || count < 1 || count > maxDemoCount) {
    throw new RangeError(`Anzahl muss zwischen 1 und ${maxDemoCount} liegen.`);
  }
  const random = demoRandom(options.seed ?? now);
  // Addresses must differ from those of an earlier run: a tag per run.
  const runTag = (options.seed ?? now).toString(36).slice(-5);
  const questions = await must<DemoQuestion[]>(
    supabase
      .from('questions')
      .select('id, form_id, type, options, multipleAnswers, key')
      .order('sequence'),
  );
  const formIds = [...new Set(questions.map((question) => question.form_id))];
  if (formIds.length === 0) formIds.push(1);
  let responses = 0;
  let answers = 0;
  for (let start = 0; start < count; start += chunk) {
    const size = Math.min(chunk, count - start);
    const customers = Array.from({ length: size }, (_, n) =>
      demoCustomer(start + n, random, now, runTag),
    );
    const stored = await must<(DemoCustomer & { id: number })[]>(
      supabase.from('users').insert(customers).select(),
    );
    const leads = stored.flatMap((customer) =>
      Array.from({ length: random.next() < 0.2 ? 2 : 1 }, () =>
        demoResponse(customer, random, now, formIds),
      ),
    );
    const storedLeads = await must<{ id: number; form_id: number; source: string }[]>(
      supabase.from('responses').insert(leads).select('id, form_id, source'),
    );
    const answerRows = storedLeads
      .filter((lead) => lead.source === 'questionnaire')
      .flatMap((lead) =>
        questions
          .filter((question) => question.form_id === lead.form_id)
          .map((question) => ({
            response_id: lead.id,
            question_id: question.id,
            answer: demoAnswer(question, random, now),
          })),
      );
    for (let from = 0; from < answerRows.length; from += chunk * 2) {
      await must(supabase.from('answers').insert(answerRows.slice(from, from + chunk * 2)));
    }
    responses += storedLeads.length;
    answers += answerRows.length;
    options.onProgress?.(start + size, count);
  }
  return { customers: count, responses, answers };
}

/** Deletes every demo customer and their leads (answers go with their lead). */
export async function removeDemo(supabase: SupabaseClient) {
  const pattern = `%@${demoDomain}`;
  const leads = await supabase.from('responses').delete({ count: 'exact' }).like('email', pattern);
  if (leads.error) throw new Error(leads.error.message);
  const customers = await supabase.from('users').delete({ count: 'exact' }).like('email', pattern);
  if (customers.error) throw new Error(customers.error.message);
  return { customers: customers.count ?? 0, responses: leads.count ?? 0 };
}
