/** Lower case without accents, so a search for 'ecole' finds 'École' and 'eur' finds 'Euro'. */
export const foldForSearch = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Whether `label` holds `query`, ignoring case and accents (an empty query matches everything). */
export const matchesSearch = (label: string, query: string): boolean => foldForSearch(label).includes(foldForSearch(query.trim()));
