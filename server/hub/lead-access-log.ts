import type { Queryable } from '../db/database.ts';
import type { Columns } from '../db/table-rows.ts';

// A lead read through GET /api/responses by a staff account is a look at a person's answers:
// 'answers_viewed' per customer of the leads served, with the leads' numbers (no personal data),
// as customer_leads logs it for the desk. Integrations (the hub token) are not staff.
export async function logStaffRead(
  db: Queryable,
  staffId: string | undefined,
  leads: Columns<'responses', 'id'>[],
): Promise<void> {
  if (staffId === undefined || leads.length === 0) return;
  await db.query(
    `insert into public.access_log (user_id, staff_email, action, customer_id, detail)
     select $1::uuid, (select s.email from public.staff s where s.user_id = $1::uuid),
            'answers_viewed', r.user_id,
            jsonb_build_object('via', 'api', 'leads', jsonb_agg(r.id order by r.id))
       from public.responses r
      where r.id = any ($2::int[])
      group by r.user_id`,
    [staffId, leads.map((lead) => lead.id)],
  );
}
