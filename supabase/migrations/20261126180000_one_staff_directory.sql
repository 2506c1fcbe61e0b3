-- One list of colleagues: follow_up_staff() (20261126110000_follow_ups_notes.sql) returned exactly
-- what staff_directory() (20261126100000_lead_status.sql) returns; the follow-up dialog now reads
-- staff_directory().
drop function public.follow_up_staff();
