import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useCreatePath, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { Box, Button, Chip, Typography } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import EditIcon from '@mui/icons-material/Edit';
import { languageName, useSiteLanguages } from './editor/languages';
import type { EditorRecord } from './editor/event-shape';

/**
 * Which site languages the event has a translation in (its `translations`), each a link to that
 * translation; for the others, "translate" opens the editor of a new event in that language,
 * beside this one.
 */
export function TranslationPanel() {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const createPath = useCreatePath();
  const record = useRecordContext<EditorRecord>();
  const languages = useSiteLanguages();
  // The new translation's screen is fetched ahead: otherwise this editor stays on screen, still
  // editable, while that screen's code arrives after "translate" (a route loads in a transition).
  const translatable = record !== undefined && languages.length > 1;
  useEffect(() => {
    if (translatable) void import('./EventCreate');
  }, [translatable]);
  if (!translatable) return null;
  const translations = record.translations ?? {};
  return (
    <Box
      component="section"
      aria-labelledby="event-translations-title"
      sx={{ width: '100%', mb: 2, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
    >
      <Typography id="event-translations-title" variant="subtitle1" component="h2" sx={{ mr: 1 }}>
        {translate('cal.editor.translations.title')}
      </Typography>
      {languages.map((language) => {
        const name = languageName(language, locale);
        const id = translations[language];
        if (language === record.i18n_language)
          return <Chip key={language} label={translate('cal.editor.translations.this', { language: name })} />;
        if (id !== undefined)
          return (
            <Button
              key={language}
              size="small"
              variant="outlined"
              startIcon={<EditIcon />}
              component={RouterLink}
              to={createPath({ resource: 'events', type: 'edit', id })}
            >
              {translate('cal.editor.translations.open', { language: name })}
            </Button>
          );
        return (
          <Button
            key={language}
            size="small"
            startIcon={<TranslateIcon />}
            component={RouterLink}
            to={`${createPath({ resource: 'events', type: 'create' })}?translation_of=${record.id}&i18n_language=${language}`}
          >
            {translate('cal.editor.translations.translate', { language: name })}
          </Button>
        );
      })}
    </Box>
  );
}
