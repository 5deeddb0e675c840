import { messagePack } from './page.i18n-pack.js';

/** The words of the map view, in each language of the catalogue (page.i18n.ts merges them). */
export const MAP_MESSAGES = messagePack({
  en: {
    mapTitle: 'Map of events',
    mapRegion: 'Map of the events listed',
    mapNone: 'No upcoming event has a place on the map.',
    mapUnmappedOne: 'One event of these dates has no place on the map:',
    mapUnmapped: '{n} events of these dates have no place on the map:',
    mapUnmappedMore: 'More than {n} events of these dates have no place on the map:',
    mapSeeList: 'see them in the list',
  },
  fr: {
    mapTitle: 'Carte des événements',
    mapRegion: 'Carte des événements de la liste',
    mapNone: "Aucun événement à venir n'a de lieu sur la carte.",
    mapUnmappedOne: "Un événement de ces dates n'a pas de lieu sur la carte :",
    mapUnmapped: "{n} événements de ces dates n'ont pas de lieu sur la carte :",
    mapUnmappedMore: "Plus de {n} événements de ces dates n'ont pas de lieu sur la carte :",
    mapSeeList: 'voir la liste',
  },
  it: {
    mapTitle: 'Mappa degli eventi',
    mapRegion: 'Mappa degli eventi elencati',
    mapNone: 'Nessun evento in programma ha un luogo sulla mappa.',
    mapUnmappedOne: 'Un evento di queste date non ha un luogo sulla mappa:',
    mapUnmapped: '{n} eventi di queste date non hanno un luogo sulla mappa:',
    mapUnmappedMore: 'Più di {n} eventi di queste date non hanno un luogo sulla mappa:',
    mapSeeList: "vederli nell'elenco",
  },
  es: {
    mapTitle: 'Mapa de eventos',
    mapRegion: 'Mapa de los eventos de la lista',
    mapNone: 'Ningún evento próximo tiene un lugar en el mapa.',
    mapUnmappedOne: 'Un evento de estas fechas no tiene lugar en el mapa:',
    mapUnmapped: '{n} eventos de estas fechas no tienen lugar en el mapa:',
    mapUnmappedMore: 'Más de {n} eventos de estas fechas no tienen lugar en el mapa:',
    mapSeeList: 'verlos en la lista',
  },
  de: {
    mapTitle: 'Karte der Veranstaltungen',
    mapRegion: 'Karte der aufgeführten Veranstaltungen',
    mapNone: 'Keine kommende Veranstaltung hat einen Ort auf der Karte.',
    mapUnmappedOne: 'Eine Veranstaltung dieser Tage hat keinen Ort auf der Karte:',
    mapUnmapped: '{n} Veranstaltungen dieser Tage haben keinen Ort auf der Karte:',
    mapUnmappedMore: 'Mehr als {n} Veranstaltungen dieser Tage haben keinen Ort auf der Karte:',
    mapSeeList: 'in der Liste ansehen',
  },
});
