import { useLocaleState, useTranslate } from 'react-admin';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { languageName } from './editor/languages';
import { floating, type EditorRecord } from './editor/event-shape';

/** The text of a description without its markup: shown, never run as HTML. */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** The event being translated, read only, beside the translation's editor. */
export function TranslationSource({ record }: { record: EditorRecord }) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const when = (wall: string) => {
    const date = floating(wall);
    return date
      ? new Intl.DateTimeFormat(locale, {
          dateStyle: 'full',
          ...(record.all_day ? {} : { timeStyle: 'short' }),
          timeZone: 'UTC',
        }).format(date)
      : wall;
  };
  return (
    <Card
      variant="outlined"
      component="aside"
      aria-labelledby="translation-source-title"
      sx={{ height: '100%', bgcolor: 'action.hover' }}
    >
      <CardContent>
        <Typography id="translation-source-title" variant="overline" component="h2">
          {translate('cal.editor.translations.original', {
            language: languageName(record.i18n_language ?? '', locale),
          })}
        </Typography>
        <Typography variant="h6" component="p" sx={{ overflowWrap: 'anywhere' }}>
          {record.title}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {when(record.start_date)} – {when(record.end_date)} ({record.timezone})
        </Typography>
        {record.excerpt && (
          <Box sx={{ mb: 2 }}>
            <Typography variant="subtitle2" component="h3">
              {translate('cal.editor.fields.excerpt')}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {plainText(record.excerpt)}
            </Typography>
          </Box>
        )}
        {record.description && (
          <Box>
            <Typography variant="subtitle2" component="h3">
              {translate('cal.editor.fields.description')}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {plainText(record.description)}
            </Typography>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
