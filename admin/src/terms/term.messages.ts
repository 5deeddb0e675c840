import type { FeatureMessages } from '../i18n/types';

/** Categories and tags (one set of screens). */
export const termMessages: FeatureMessages = {
  en: {
    resources: {
      categories: {
        name: 'Category |||| Categories',
        fields: {
          name: 'Name',
          slug: 'Slug',
          description: 'Description',
          count: 'Events',
          parentName: 'Parent category',
        },
      },
      tags: {
        name: 'Tag |||| Tags',
        fields: {
          name: 'Name',
          slug: 'Slug',
          description: 'Description',
          count: 'Events',
          parentName: 'Parent category',
        },
      },
    },
    cal: {
      terms: {
        parent: 'Parent category',
        no_parent: 'None (top level)',
        events: 'Events',
        event_count: '1 published event |||| %{smart_count} published events',
      },
    },
  },
  fr: {
    resources: {
      categories: {
        name: 'Catégorie |||| Catégories',
        fields: {
          name: 'Nom',
          slug: 'Identifiant d’URL',
          description: 'Description',
          count: 'Événements',
          parentName: 'Catégorie parente',
        },
      },
      tags: {
        name: 'Étiquette |||| Étiquettes',
        fields: {
          name: 'Nom',
          slug: 'Identifiant d’URL',
          description: 'Description',
          count: 'Événements',
          parentName: 'Catégorie parente',
        },
      },
    },
    cal: {
      terms: {
        parent: 'Catégorie parente',
        no_parent: 'Aucune (premier niveau)',
        events: 'Événements',
        event_count: '1 événement publié |||| %{smart_count} événements publiés',
      },
    },
  },
  it: {
    resources: {
      categories: {
        name: 'Categoria |||| Categorie',
        fields: {
          name: 'Nome',
          slug: 'Slug',
          description: 'Descrizione',
          count: 'Eventi',
          parentName: 'Categoria superiore',
        },
      },
      tags: {
        name: 'Tag |||| Tag',
        fields: {
          name: 'Nome',
          slug: 'Slug',
          description: 'Descrizione',
          count: 'Eventi',
          parentName: 'Categoria superiore',
        },
      },
    },
    cal: {
      terms: {
        parent: 'Categoria superiore',
        no_parent: 'Nessuna (primo livello)',
        events: 'Eventi',
        event_count: '1 evento pubblicato |||| %{smart_count} eventi pubblicati',
      },
    },
  },
  es: {
    resources: {
      categories: {
        name: 'Categoría |||| Categorías',
        fields: {
          name: 'Nombre',
          slug: 'Slug',
          description: 'Descripción',
          count: 'Eventos',
          parentName: 'Categoría superior',
        },
      },
      tags: {
        name: 'Etiqueta |||| Etiquetas',
        fields: {
          name: 'Nombre',
          slug: 'Slug',
          description: 'Descripción',
          count: 'Eventos',
          parentName: 'Categoría superior',
        },
      },
    },
    cal: {
      terms: {
        parent: 'Categoría superior',
        no_parent: 'Ninguna (primer nivel)',
        events: 'Eventos',
        event_count: '1 evento publicado |||| %{smart_count} eventos publicados',
      },
    },
  },
  de: {
    resources: {
      categories: {
        name: 'Kategorie |||| Kategorien',
        fields: {
          name: 'Name',
          slug: 'Titelform (Slug)',
          description: 'Beschreibung',
          count: 'Veranstaltungen',
          parentName: 'Übergeordnete Kategorie',
        },
      },
      tags: {
        name: 'Schlagwort |||| Schlagwörter',
        fields: {
          name: 'Name',
          slug: 'Titelform (Slug)',
          description: 'Beschreibung',
          count: 'Veranstaltungen',
          parentName: 'Übergeordnete Kategorie',
        },
      },
    },
    cal: {
      terms: {
        parent: 'Übergeordnete Kategorie',
        no_parent: 'Keine (oberste Ebene)',
        events: 'Veranstaltungen',
        event_count: '1 veröffentlichte Veranstaltung |||| %{smart_count} veröffentlichte Veranstaltungen',
      },
    },
  },
};
