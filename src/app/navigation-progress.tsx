import { useNavigation } from 'react-router-dom';

/** A thin bar while the router fetches a lazily loaded screen, so a slow network shows life. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      role="progressbar"
      aria-label="Seite wird geladen"
      className="fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-accent-500"
    />
  );
}
