/**
 * The head of the desk's admin tables: the caption that names the table for screen readers (the
 * page's heading names it for the eye) and one column heading per entry. `compact` for a table
 * inside a panel.
 */
export function AdminTableHead({
  caption,
  columns,
  compact = false,
}: {
  caption: string;
  columns: readonly string[];
  compact?: boolean;
}) {
  return (
    <>
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-50 text-slate-700">
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col" className={compact ? 'px-2 py-2' : 'px-4 py-3'}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
    </>
  );
}
