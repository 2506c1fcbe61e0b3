-- The office's daily work (issue 24), the shared tables: a lead's status and its history,
-- follow-ups (Wiedervorlage), notes per customer, and a staff account's display name. The
-- functions, policies and grants that use them come in the migrations after this one; until
-- then row level security is on and the API roles hold no privilege, so nothing is exposed.
--
-- Every table hangs off the customer or the lead with `on delete cascade`: erasing a customer
-- (erase_customer) and the retention job take all of it with them, without either knowing it.

-- Where the office stands with a lead. The codes are the data's; the desk shows German labels
-- (src/domain/lead-status.ts): new Neu, contacted Kontaktiert, appointment Termin vereinbart,
-- offer_sent Angebot gesendet, closed Abgeschlossen, no_interest Kein Interesse.
alter table public.responses
  add column status text not null default 'new'
    check (status in ('new', 'contacted', 'appointment', 'offer_sent', 'closed', 'no_interest'));
create index responses_status_idx on public.responses (status, received_at desc);

-- Every change of a lead's status, with who and when. The lead's arrival (status new at
-- received_at) is no row: the lead itself records it.
create table public.lead_status_changes (
  id bigint generated always as identity primary key,
  response_id integer not null references public.responses (id) on delete cascade,
  status text not null
    check (status in ('new', 'contacted', 'appointment', 'offer_sent', 'closed', 'no_interest')),
  note text check (note is null or char_length(note) between 1 and 1000),
  changed_by uuid references auth.users (id) on delete set null,
  changed_at timestamptz not null default now()
);
create index lead_status_changes_response_idx
  on public.lead_status_changes (response_id, changed_at, id);

-- A follow-up: due at a time, for an account (or nobody yet), about a customer and maybe one of
-- their leads. Automatic ones are made for a callback wish; one per lead at most.
create table public.follow_ups (
  id bigint generated always as identity primary key,
  customer_id integer not null references public.users (id) on delete cascade,
  response_id integer references public.responses (id) on delete set null,
  due_at timestamptz not null,
  assignee uuid references auth.users (id) on delete set null,
  body text not null default '' check (char_length(body) <= 500),
  automatic boolean not null default false,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  done_at timestamptz,
  done_by uuid references auth.users (id) on delete set null
);
create index follow_ups_open_idx on public.follow_ups (due_at, id) where done_at is null;
create index follow_ups_customer_idx on public.follow_ups (customer_id);
create index follow_ups_response_idx on public.follow_ups (response_id);
create unique index follow_ups_one_automatic_per_lead
  on public.follow_ups (response_id) where automatic;

-- Notes about a customer: author and time; the author may correct one for 15 minutes.
create table public.customer_notes (
  id bigint generated always as identity primary key,
  customer_id integer not null references public.users (id) on delete cascade,
  author uuid references auth.users (id) on delete set null,
  body text not null check (char_length(btrim(body)) between 1 and 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz
);
create index customer_notes_customer_idx on public.customer_notes (customer_id, created_at desc);

-- The name a staff account shows to colleagues (history, follow-ups, notes); the e-mail address
-- stands in while it is empty.
alter table public.staff
  add column display_name text
    check (display_name is null or char_length(btrim(display_name)) between 1 and 80);

alter table public.lead_status_changes enable row level security;
alter table public.follow_ups enable row level security;
alter table public.customer_notes enable row level security;
revoke all on public.lead_status_changes, public.follow_ups, public.customer_notes
  from public, anon, authenticated;
