import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { useCreatePath, useLocale, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import { languageName, useSiteLanguages } from './siteLanguages';

type Translated = { id: number; i18n_language?: string; translations?: Record<string, number> } & Record<
  string,
  unknown
>;

/**
 * The record's languages: each site language links to its translation, or offers to start one.
 * A new translation opens the create screen with the original's fields filled in and
 * `translation_of` set, which is how any client of the API makes one.
 */
export function Translations({ copy }: { copy: (record: Translated) => Record<string, unknown> }) {
  const record = useRecordContext<Translated>();
  const resource = useResourceContext();
  const createPath = useCreatePath();
  const translate = useTranslate();
  const locale = useLocale();
  const { languages } = useSiteLanguages();
  if (!record || !resource || languages.length < 2) return null;
  const translations = record.translations ?? {};
  return (
    <Box component="section" aria-labelledby="cal-translations" sx={{ mt: 2 }}>
      <Typography id="cal-translations" variant="h6" component="h2" gutterBottom>
        {translate('cal.translations.title')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {languages.map((language) => {
          const name = languageName(language, locale);
          const id = translations[language];
          if (id === record.id) return <Chip key={language} label={name} color="primary" />;
          if (id !== undefined)
            return (
              <Chip
                key={language}
                label={name}
                clickable
                component={RouterLink}
                to={createPath({ resource, id, type: 'edit' })}
                aria-label={translate('cal.translations.open', { language: name })}
              />
            );
          return (
            <Button
              key={language}
              size="small"
              variant="outlined"
              startIcon={<TranslateIcon />}
              component={RouterLink}
              to={createPath({ resource, type: 'create' })}
              state={{ record: { ...copy(record), translation_of: record.id, i18n_language: language } }}
            >
              {translate('cal.translations.translate', { language: name })}
            </Button>
          );
        })}
      </Stack>
    </Box>
  );
}
