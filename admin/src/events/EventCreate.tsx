import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { Create, Loading, useGetOne, useLocaleState, usePermissions, useTranslate } from 'react-admin';
import { Grid } from '@mui/material';
import type { Role } from '../api/session';
import { EventForm } from './EventForm';
import { TranslationSource } from './TranslationSource';
import { defaultStatus } from './editor/StatusInput';
import { useSiteZone } from './editor/zones';
import { languageName } from './editor/languages';
import { newEventValues, toForm, toWrite, type EditorRecord, type EventFormValues } from './editor/event-shape';

/** A translation starts as a copy of its original, to be translated, in its language and group. */
function translationValues(original: EditorRecord, language: string, status: string): Partial<EditorRecord> {
  const {
    id: _id,
    url: _url,
    translations: _t,
    series_id,
    recurrence_id: _r,
    recurrence_summary: _s,
    ...copy
  } = original;
  return {
    ...copy,
    // An occurrence's translation is one event; a series' is a series of its own.
    recurrence: series_id === original.id ? original.recurrence : null,
    status,
    translation_of: Number(original.id),
    i18n_language: language,
  };
}

function CreateTitle({ language }: { language?: string }) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  return (
    <>
      {language
        ? translate('cal.editor.translate_title', { language: languageName(language, locale) })
        : translate('cal.editor.create_title')}
    </>
  );
}

/** A new event opens at the next full hour of the site's zone, for an hour; or as a translation beside its original. */
function EventCreateScreen() {
  const [params] = useSearchParams();
  const translationOf = Number(params.get('translation_of')) || undefined;
  const language = params.get('i18n_language') ?? undefined;
  const { permissions, isPending } = usePermissions<Role>();
  const zone = useSiteZone(permissions, !isPending);
  const { data: original, isPending: originalPending } = useGetOne<EditorRecord>(
    'events',
    { id: translationOf ?? 0 },
    { enabled: translationOf !== undefined, select: (record) => toForm(record) },
  );
  const ready = zone !== undefined && (translationOf === undefined || !originalPending);
  // Taken once: a later read of the original (or of the role) must not reset what is being typed.
  const [defaults, setDefaults] = useState<Partial<EditorRecord>>();
  useEffect(() => {
    if (!ready || defaults || !zone) return;
    const status = defaultStatus(permissions);
    setDefaults(original && language ? translationValues(original, language, status) : newEventValues(zone, status));
  }, [ready, defaults, zone, original, language, permissions]);
  if (!defaults) return <Loading />;

  return (
    <Create
      transform={(data: Partial<EventFormValues>) => toWrite(data)}
      redirect="edit"
      title={<CreateTitle language={language} />}
      sx={{ '& .RaCreate-main': { minWidth: 0 } }}
    >
      <Grid container spacing={2} sx={{ p: { xs: 0, sm: 1 } }}>
        {original && (
          <Grid size={{ xs: 12, lg: 5 }}>
            <TranslationSource record={original} />
          </Grid>
        )}
        <Grid size={{ xs: 12, lg: original ? 7 : 12 }} sx={{ minWidth: 0 }}>
          <EventForm defaultValues={defaults} />
        </Grid>
      </Grid>
    </Create>
  );
}

/** Another address (a translation into another language, or none) is another new event: a fresh form. */
export default function EventCreate() {
  const { search } = useLocation();
  return <EventCreateScreen key={search} />;
}
