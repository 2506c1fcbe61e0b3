// The consent banner's categories in its own German names (src/ui/cookie-consent.ts), for the
// cookie choice stored with each lead ('necessary,statistics').
const cookieCategories: Record<string, string> = {
  necessary: 'Unbedingt erforderlich',
  preferences: 'Präferenzen',
  statistics: 'Statistik',
  marketing: 'Marketing',
};

/** 'necessary,statistics' → 'Unbedingt erforderlich, Statistik'; unknown names stay as stored. */
export function cookieCategoryNames(choice: string): string {
  return choice
    .split(',')
    .map((category) => category.trim())
    .filter(Boolean)
    .map((category) => cookieCategories[category] ?? category)
    .join(', ');
}
