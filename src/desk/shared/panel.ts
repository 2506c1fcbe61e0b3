// The lead page's cards: white, rounded, shadowed, as the desk's other content cards.
export const panelClass = 'rounded-lg bg-white p-5 shadow';
