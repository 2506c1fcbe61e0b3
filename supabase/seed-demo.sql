-- Demo generators, seed-only: never part of supabase/migrations or supabase/schemas, so a real
-- installation never has them. `npm run seed:demo`, bench:desk and the tests run this file in
-- the transaction that makes a chunk of demo data (scripts/demo-data.ts), call seed_demo and drop
-- both functions again before the commit: nothing of it stays in the database.
--
-- seed_demo makes `count` customers with their leads and answers in the database itself
-- (generate_series, set-based): names, places and streets from fixed lists, one lead (one in
-- five: two) per customer, 65 % questionnaire, 17 % KFZ callback, 18 % contact, 15 % from the
-- fair tablet (captured up to six hours before it arrived), the questionnaire's answers as a
-- visitor might give them. Every address ends in @demo.example, so `--remove` finds them; the
-- same triggers and checks apply as to any insert. Run by hand (`psql -f`), only the service role
-- may call them (the grants below); they run as their caller (security invoker).
--
--   count        customers to add (1 .. 20,000 per call; the script calls it in chunks)
--   seed         setseed()'s value (-1 .. 1): the same seed gives the same data
--   run_tag      part of every address, so that a second run's addresses differ from the first's
--   first_index  the number of the first customer of this chunk in the run (in the address)
--   at           "now" of the data: created_at and the leads' dates lie up to a year before

-- The answer a visitor might give to a question: an option,
-- several, a list of children's birth dates or a short text.
create or replace function public.demo_answer(
  question_type text,
  options jsonb,
  multiple boolean,
  question_key text,
  at timestamptz
) returns text
language plpgsql volatile set search_path = ''
as $$
declare
  texts text[];
  chosen text[];
  pick integer;
begin
  select coalesce(array_agg(o.value order by o.key::integer), '{}')
    into texts
    from jsonb_each_text(demo_answer.options) o;
  if demo_answer.question_key = 'tabaluga_child_dates' then
    return (select string_agg(
                     to_char((demo_answer.at - make_interval(
                                days => 30 + floor(random() * (17 * 365 - 29))::integer))
                               at time zone 'UTC', 'YYYY-MM-DD'), ', ')
              from generate_series(1, 1 + floor(random() * 3)::integer));
  end if;
  if demo_answer.question_type = 'input' then
    if coalesce(texts[1], '') ~* 'jahr|geboren' or coalesce(texts[1], '') ~ '19[0-9][0-9]' then
      return (1960 + floor(random() * 45)::integer)::text;
    end if;
    if random() < 0.7 then
      return '';
    end if;
    return (array['Bitte Rückruf am Abend', 'Familientarif?'])[1 + floor(random() * 2)::integer];
  end if;
  if cardinality(texts) = 0 then
    return '';
  end if;
  pick := 1 + floor(random() * cardinality(texts))::integer;
  if demo_answer.multiple then
    select coalesce(array_agg(t.choice order by t.n), '{}')
      into chosen
      from unnest(texts) with ordinality as t(choice, n)
     where random() < 0.4;
    if cardinality(chosen) = 0 then
      chosen := array[texts[pick]];
    end if;
    return array_to_string(chosen, ', ');
  end if;
  return texts[pick];
end;
$$;
revoke execute on function public.demo_answer(text, jsonb, boolean, text, timestamptz)
  from public, anon, authenticated;
grant execute on function public.demo_answer(text, jsonb, boolean, text, timestamptz)
  to service_role;

create or replace function public.seed_demo(
  count integer,
  seed double precision default 0,
  run_tag text default '',
  first_index integer default 0,
  at timestamptz default now()
) returns table (customers integer, responses integer, answers integer)
language plpgsql volatile set search_path = ''
as $$
declare
  first_names text[] := string_to_array(
    'Anna;Lena;Marie;Sophie;Laura;Julia;Sarah;Katharina;Hannah;Lea;Emma;Mia;Johanna;' ||
    'Clara;Paula;Jana;Ines;Birgit;Sabine;Monika;Lukas;Jonas;Leon;Felix;Maximilian;' ||
    'Paul;Elias;Tim;Niklas;Jan;Thomas;Michael;Andreas;Stefan;Markus;Christian;Jürgen;' ||
    'Uwe;Björn;Özgür', ';');
  last_names text[] := string_to_array(
    'Müller;Schmidt;Schneider;Fischer;Weber;Meyer;Wagner;Becker;Schulz;Hoffmann;' ||
    'Schäfer;Koch;Bauer;Richter;Klein;Wolf;Schröder;Neumann;Schwarz;Zimmermann;Braun;' ||
    'Krüger;Hofmann;Hartmann;Lange;Schmitt;Werner;Krause;Meier;Lehmann;Schmid;' ||
    'Schulze;Maier;Köhler;Herrmann;König;Walter;Mayer;Huber;Kaiser;Fuchs;Peters;Lang;' ||
    'Scholz;Möller;Weiß;Jung;Hahn;Yılmaz;Nowak', ';');
  places text[] := string_to_array(
    '10115 Berlin;20095 Hamburg;80331 München;50667 Köln;60311 Frankfurt am Main;' ||
    '70173 Stuttgart;40213 Düsseldorf;04109 Leipzig;44135 Dortmund;45127 Essen;' ||
    '28195 Bremen;01067 Dresden;30159 Hannover;90402 Nürnberg;47051 Duisburg;' ||
    '44787 Bochum;42103 Wuppertal;33602 Bielefeld;53111 Bonn;48143 Münster;' ||
    '76133 Karlsruhe;68159 Mannheim;86150 Augsburg;65183 Wiesbaden;' ||
    '41061 Mönchengladbach;38100 Braunschweig;24103 Kiel;14467 Potsdam;99084 Erfurt;' ||
    '18055 Rostock', ';');
  streets text[] := string_to_array(
    'Hauptstraße;Schulstraße;Gartenstraße;Bahnhofstraße;Dorfstraße;Bergstraße;' ||
    'Birkenweg;Lindenstraße;Kirchstraße;Waldstraße;Ringstraße;Schillerstraße;' ||
    'Goethestraße;Am Markt;Mühlenweg;Rosenstraße', ';');
  call_times text[] := array['Morgens', 'Mittags', 'Nachmittags', 'Abends'];
  form_ids integer[];
  day interval := interval '1 day';
  added_customers integer;
  added_responses integer;
  added_answers integer;
begin
  if seed_demo.count is null or seed_demo.count < 1 or seed_demo.count > 20000 then
    raise exception 'Anzahl muss zwischen 1 und 20000 liegen.' using errcode = '22023';
  end if;
  perform setseed(greatest(-1, least(1, coalesce(seed_demo.seed, 0))));
  select coalesce(array_agg(distinct q.form_id order by q.form_id), array[1])
    into form_ids
    from public.questions q;

  -- The customers, then one or two leads each (the customer's details as the lead's snapshot).
  -- The leads are made from the inserted rows themselves (returning), not by a join back on the
  -- address: without statistics on the fresh rows the planner chose a nested loop over every
  -- customer, and on PostgreSQL a chunk ran into the statement timeout at 60,000 customers.
  create temporary table demo_users (
    id integer, first_name text, last_name text, email text, phone text, adress text,
    postcode text, city text
  ) on commit drop;
  with added as (
    insert into public.users (first_name, last_name, email, phone, adress, postcode, city,
                              created_at)
    select c.first_name, c.last_name,
           regexp_replace(lower(normalize(c.first_name || '.' || c.last_name, NFKD)),
                          '[^a-z.]', '', 'g')
             || '.' || seed_demo.run_tag || c.i || '@demo.example',
           c.phone, c.adress, c.postcode, c.city, c.created_at
      from (select i, f.first_name, l.last_name,
                   substr(p.place, 1, 5) as postcode, substr(p.place, 7) as city,
                   '+49 1' || (51 + floor(random() * 29)::integer) || ' '
                     || (1000000 + floor(random() * 9000000)::integer) as phone,
                   streets[1 + floor(random() * cardinality(streets))::integer] || ' '
                     || (1 + floor(random() * 120)::integer) as adress,
                   seed_demo.at - floor(random() * 366)::integer * day - random() * day
                     as created_at
              from generate_series(seed_demo.first_index,
                                   seed_demo.first_index + seed_demo.count - 1) i
              cross join lateral (select first_names[1 + floor(random() * cardinality(first_names)
                                                               + 0 * i)::integer] as first_name) f
              cross join lateral (select last_names[1 + floor(random() * cardinality(last_names)
                                                              + 0 * i)::integer] as last_name) l
              cross join lateral (select places[1 + floor(random() * cardinality(places)
                                                          + 0 * i)::integer] as place) p) c
     order by c.i
    returning id, first_name, last_name, email, phone, adress, postcode, city
  )
  insert into demo_users select * from added;
  select count(*) into added_customers from demo_users;

  create temporary table demo_leads on commit drop as
  select u.id as user_id, u.first_name, u.last_name, u.email, u.phone, u.adress, u.postcode,
         u.city, x.roll, x.fair_tablet, x.received, x.offline_for,
         x.form_pick, x.call_pick, x.offer_roll
    from demo_users u
    cross join lateral generate_series(1, case when random() < 0.2 then 2 else 1 end + 0 * u.id) n
    cross join lateral (
      select random() + 0 * n as roll,
             random() < 0.15 as fair_tablet,
             seed_demo.at - floor(random() * 121)::integer * day - random() * day as received,
             (60 + floor(random() * (6 * 60 * 60 - 59))) * interval '1 second' as offline_for,
             1 + floor(random() * cardinality(form_ids))::integer as form_pick,
             1 + floor(random() * cardinality(call_times))::integer as call_pick,
             random() as offer_roll
    ) x;

  create temporary table demo_responses (id integer, form_id integer, source text)
    on commit drop;
  with added as (
    insert into public.responses (client_id, payload_hash, form_id, user_id, source, channel,
      first_name, last_name, email, phone, adress, postcode, city, call_time, offer_info,
      terms_accepted, data_processing_consent, consent_version, create_date, changed_date,
      captured_at, received_at, waited_offline, create_user, changed_user)
    select gen_random_uuid(), 'demo', s.form_id, s.user_id, s.source::public.lead_source,
           (case when s.fair_tablet then 'fair_tablet' else 'web' end)::public.lead_channel,
           s.first_name, s.last_name, s.email, s.phone, s.adress, s.postcode, s.city,
           case when s.source = 'kfz' then call_times[s.call_pick] end,
           case when s.source = 'questionnaire' then s.offer_roll < 0.6 else true end,
           true, true, '2026-11-22', s.captured, s.captured, s.captured, s.received,
           s.fair_tablet, s.first_name || ' ' || s.last_name, s.first_name || ' ' || s.last_name
      from (select l.*,
                   case when l.roll < 0.65 then 'questionnaire'
                        when l.roll < 0.82 then 'kfz' else 'contact' end as source,
                   case when l.roll < 0.65 then form_ids[l.form_pick] else 1 end as form_id,
                   case when l.fair_tablet then l.received - l.offline_for
                        else l.received end as captured
              from demo_leads l) s
    returning id, form_id, source
  )
  insert into demo_responses select * from added;
  select count(*) into added_responses from demo_responses;

  insert into public.answers (response_id, question_id, answer)
  select r.id, q.id,
         public.demo_answer(q.type::text, q.options, q."multipleAnswers", q.key, seed_demo.at)
    from demo_responses r
    join public.questions q on q.form_id = r.form_id
   where r.source = 'questionnaire'
   order by r.id, q.sequence, q.id;
  get diagnostics added_answers = row_count;

  drop table demo_users, demo_leads, demo_responses;
  return query select added_customers, added_responses, added_answers;
end;
$$;
revoke execute on function public.seed_demo(integer, double precision, text, integer, timestamptz)
  from public, anon, authenticated;
grant execute on function public.seed_demo(integer, double precision, text, integer, timestamptz)
  to service_role;
