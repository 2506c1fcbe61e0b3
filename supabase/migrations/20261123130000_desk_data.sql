-- Survey Desk edits questionnaires while visitors answer them. This migration makes those edits
-- safe: a question's place in its form is kept gapless and unique by the database, answers keep
-- the text of the question they answered, the Tabaluga flow finds its questions by a stable key,
-- and a lead records whether it came from the fair tablet.

-- 1. Stable keys for the questions a flow depends on. The Tabaluga page reads the child count,
-- shows the children's date inputs and picks the offer by these keys, never by id or position,
-- so adding, editing or reordering questions of form 1 keeps its flow working.
alter table public.questions
  add column key text unique check (key ~ '^[a-z][a-z0-9_]{2,62}$');

-- Databases seeded before this migration: the seed's Tabaluga questions (a fresh database gets its
-- keys from supabase/seed.sql, which runs after the migrations).
update public.questions set key = 'tabaluga_child_count'
 where id = 1 and form_id = 1 and key is null;
update public.questions set key = 'tabaluga_child_dates'
 where id = 2 and form_id = 1 and key is null;
update public.questions set key = 'tabaluga_offer_amount'
 where id = 3 and form_id = 1 and key is null;

-- 2. A form's questions are numbered 1..n: no gaps, no duplicates. Existing data is renumbered in
-- its current order first.
update public.questions q
   set sequence = ordered.position
  from (select id, row_number() over (partition by form_id order by sequence, id) as position
          from public.questions) ordered
 where q.id = ordered.id and q.sequence <> ordered.position;

-- Deferred: moving a question shifts its neighbours one by one, and only the end of the
-- statement has to be unique again.
alter table public.questions
  add constraint questions_form_sequence_key unique (form_id, sequence)
  deferrable initially deferred;

-- Every change to question order waits for the one before it, so two editors moving questions at
-- once each work on the other's committed result instead of interleaving shifts (which would
-- leave duplicates, or deadlock on each other's rows). A statement-level trigger takes the lock
-- before the statement locks any row. Question edits are rare; one lock for all forms is enough.
create function public.lock_question_order() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(
    'public.questions'::pg_catalog.regclass::pg_catalog.oid::bigint
  );
  return null;
end;
$$;

create trigger lock_question_order
  before insert or update or delete on public.questions
  for each statement execute function public.lock_question_order();

-- Places a new question at its sequence (clamped to 1..n+1, default the end) and moves an edited
-- one to its new sequence (clamped to 1..n); the questions in between shift by one. The shifts
-- are updates of this table too: at a trigger depth above 1 they pass through unchanged.
create function public.place_question() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  total integer;
  target integer;
begin
  if pg_catalog.pg_trigger_depth() > 1 then
    return new;
  end if;
  if tg_op = 'UPDATE' and new.form_id <> old.form_id then
    raise exception 'Eine Frage kann nicht in einen anderen Fragebogen verschoben werden.'
      using errcode = '22023';
  end if;
  if tg_op = 'UPDATE' and new.sequence is not distinct from old.sequence then
    return new;
  end if;
  select count(*) into total from public.questions where form_id = new.form_id;
  if tg_op = 'INSERT' then
    target := least(greatest(coalesce(new.sequence, total + 1), 1), total + 1);
    update public.questions set sequence = sequence + 1
     where form_id = new.form_id and sequence >= target;
  else
    target := least(greatest(coalesce(new.sequence, old.sequence), 1), total);
    if target < old.sequence then
      update public.questions set sequence = sequence + 1
       where form_id = new.form_id and sequence >= target and sequence < old.sequence
         and id <> old.id;
    elsif target > old.sequence then
      update public.questions set sequence = sequence - 1
       where form_id = new.form_id and sequence > old.sequence and sequence <= target
         and id <> old.id;
    end if;
  end if;
  new.sequence := target;
  return new;
end;
$$;

create trigger place_question
  before insert or update of sequence, form_id on public.questions
  for each row execute function public.place_question();

-- A deleted question's place closes up. Renumbering (rather than shifting by one) stays right when
-- one statement deletes several questions of a form.
create function public.close_question_gap() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if pg_catalog.pg_trigger_depth() > 1 then
    return null;
  end if;
  update public.questions q
     set sequence = ordered.position
    from (select id, row_number() over (order by sequence, id) as position
            from public.questions where form_id = old.form_id) ordered
   where q.id = ordered.id and q.sequence <> ordered.position;
  return null;
end;
$$;

create trigger close_question_gap
  after delete on public.questions
  for each row execute function public.close_question_gap();

-- A question a flow depends on cannot be deleted: the page would lose its child dates or its
-- offer. SQLSTATE UQ001 (a class of our own) lets the desk explain it in German. Deleting the whole
-- form (a cascade, trigger depth above 1) is not refused.
create function public.keep_keyed_question() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.key is not null and pg_catalog.pg_trigger_depth() = 1 then
    raise exception 'Diese Frage steuert den Ablauf ihres Fragebogens und kann nicht gelöscht werden.'
      using errcode = 'UQ001', detail = old.key;
  end if;
  return old;
end;
$$;

create trigger keep_keyed_question
  before delete on public.questions
  for each row execute function public.keep_keyed_question();

-- Moves a question by `steps` places (negative: up), clamped to its form; answers the form's
-- questions in their new order. One call is one transaction. Security invoker: row-level security
-- decides, so only staff and admins move questions.
create function public.move_question(question_id integer, steps integer)
returns setof public.questions
language plpgsql security invoker set search_path = ''
as $$
declare
  moved public.questions;
begin
  update public.questions q
     set sequence = greatest(q.sequence + steps, 1)
   where q.id = move_question.question_id
  returning q.* into moved;
  if moved.id is null then
    raise exception 'Diese Frage gibt es nicht.' using errcode = 'P0002';
  end if;
  return query
    select * from public.questions q where q.form_id = moved.form_id order by q.sequence, q.id;
end;
$$;

revoke execute on function public.move_question(integer, integer) from public, anon;
grant execute on function public.move_question(integer, integer) to authenticated, service_role;
revoke execute on function public.lock_question_order(), public.place_question(),
  public.close_question_gap(), public.keep_keyed_question() from public, anon, authenticated;

-- 3. Answers keep the question they answered. The text is copied when the answer is stored, so an
-- answer stays readable after its question is edited or deleted; a deleted question leaves its
-- answers with question_id null instead of being refused (it was refused by the foreign key).
alter table public.answers add column question_text text;
update public.answers a set question_text = q.question
  from public.questions q where q.id = a.question_id;
alter table public.answers alter column question_text set not null;
alter table public.answers alter column question_id drop not null;
alter table public.answers drop constraint answers_question_id_fkey;
alter table public.answers
  add constraint answers_question_id_fkey foreign key (question_id)
  references public.questions (id) on delete set null;

create function public.copy_question_text() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.question_text is null then
    select q.question into new.question_text from public.questions q where q.id = new.question_id;
  end if;
  return new;
end;
$$;

revoke execute on function public.copy_question_text() from public, anon, authenticated;

create trigger copy_question_text
  before insert on public.answers
  for each row execute function public.copy_question_text();

-- 4. Where a lead was captured: the website, or the agent's tablet in kiosk mode at a fair (whose
-- leads may arrive long after capture; captured_at and received_at tell by how much).
alter table public.responses
  add column channel text not null default 'web' check (channel in ('web', 'fair_tablet'));
-- A customer's answers page reads their responses newest first; this index replaces the plain one.
create index responses_user_received_idx on public.responses (user_id, received_at desc);
drop index public.responses_user_idx;
