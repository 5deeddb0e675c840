import { messagePack } from './page.i18n-pack.js';

/** The words of the month and week grids, in each language of the catalogue (page.i18n.ts merges them). */
export const MONTH_MESSAGES = messagePack({
  en: { week: 'Week', previousWeek: 'Previous week', nextWeek: 'Next week', thisWeek: 'This week' },
  fr: { week: 'Semaine', previousWeek: 'Semaine précédente', nextWeek: 'Semaine suivante', thisWeek: 'Cette semaine' },
  it: {
    week: 'Settimana',
    previousWeek: 'Settimana precedente',
    nextWeek: 'Settimana successiva',
    thisWeek: 'Questa settimana',
  },
  es: { week: 'Semana', previousWeek: 'Semana anterior', nextWeek: 'Semana siguiente', thisWeek: 'Esta semana' },
  de: { week: 'Woche', previousWeek: 'Vorherige Woche', nextWeek: 'Nächste Woche', thisWeek: 'Diese Woche' },
});
