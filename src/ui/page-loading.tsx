export function PageLoading() {
  return (
    <p role="status" className="p-8 text-center text-slate-500">
      Seite wird geladen …
    </p>
  );
}
