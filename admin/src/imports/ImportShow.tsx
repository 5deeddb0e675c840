import { Show, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatUtc } from '../users/dates';
import { StatusChip } from './ImportList';
import { KINDS, sourceOf, type Counts, type ImportJob, type ImportReport } from './importSource';

/** While an import runs its record is read again this often: progress moves under the reader's eyes. */
const POLL_MS = 1500;

const COLUMNS: (keyof Counts)[] = ['created', 'updated', 'unchanged', 'skipped', 'gone'];

function Progress({ job }: { job: ImportJob }) {
  const translate = useTranslate();
  // A kind the source had none of is left out once the import has ended.
  const kinds = KINDS.filter(
    (kind) => job.progress[kind] && (job.status === 'running' || job.progress[kind].total > 0),
  );
  if (kinds.length === 0)
    return job.status === 'running' ? <LinearProgress aria-label={translate('cal.imports.reading')} /> : null;
  return (
    <Stack spacing={1.5}>
      {kinds.map((kind) => {
        const { done, total } = job.progress[kind]!;
        const label = translate(`cal.imports.kinds.${kind}`);
        const percent = total > 0 ? Math.min(100, (done / total) * 100) : 0;
        return (
          <Box key={kind}>
            <Typography variant="body2" id={`progress-${kind}`}>
              {translate('cal.imports.progress', { kind: label, done, total })}
            </Typography>
            <LinearProgress variant="determinate" value={percent} aria-labelledby={`progress-${kind}`} />
          </Box>
        );
      })}
    </Stack>
  );
}

/** Counts per kind and language, then every skip with its reason, what the source no longer has, warnings. */
function Report({ report }: { report: ImportReport }) {
  const translate = useTranslate();
  const rows = KINDS.flatMap((kind) =>
    Object.entries(report.counts[kind] ?? {}).map(([lang, counts]) => ({ kind, lang, counts })),
  );
  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h2">
        {translate(report.dry_run ? 'cal.imports.report_dry' : 'cal.imports.report')}
      </Typography>
      <Typography variant="body2">
        {translate('cal.imports.timing', { seconds: report.seconds, rate: report.rate })}
      </Typography>
      {/* Zero width, then the whole line: the table scrolls inside the card instead of widening the page. */}
      <Box sx={{ overflowX: 'auto', width: 0, minWidth: '100%' }}>
        <Table size="small" aria-label={translate('cal.imports.report')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('cal.imports.kind')}</TableCell>
              <TableCell>{translate('cal.imports.language')}</TableCell>
              {COLUMNS.map((column) => (
                <TableCell key={column} align="right">
                  {translate(`cal.imports.counts.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map(({ kind, lang, counts }) => (
              <TableRow key={`${kind}-${lang}`}>
                <TableCell>{translate(`cal.imports.kinds.${kind}`)}</TableCell>
                <TableCell>{lang}</TableCell>
                {COLUMNS.map((column) => (
                  <TableCell key={column} align="right">
                    {counts[column]}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Issues
        title={translate('cal.imports.skipped', { smart_count: report.skipped.length })}
        items={report.skipped.map(
          (s) => `${translate(`cal.imports.kinds.${s.kind}`)} ${s.sourceId} (${s.lang}): ${s.reason}`,
        )}
      />
      <Issues
        title={translate('cal.imports.gone', { smart_count: report.gone.length })}
        items={report.gone.map(
          (g) =>
            `${translate(`cal.imports.kinds.${g.kind}`)} #${g.localId} (${g.lang})${g.pruned ? ` — ${translate('cal.imports.pruned')}` : ''}`,
        )}
      />
      <Issues
        title={translate('cal.imports.missing_links', { smart_count: report.missing_links.length })}
        items={report.missing_links.map(
          (m) => `${translate(`cal.imports.kinds.${m.kind}`)} ${m.sourceId} (${m.lang}): ${m.links.join(', ')}`,
        )}
      />
      {report.warnings.map((warning) => (
        <Alert key={warning} severity="info" sx={{ overflowWrap: 'anywhere' }}>
          {warning}
        </Alert>
      ))}
    </Stack>
  );
}

function Issues({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <Box component="section">
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3, overflowWrap: 'anywhere' }}>
        {items.map((item, index) => (
          <li key={index}>
            <Typography variant="body2">{item}</Typography>
          </li>
        ))}
      </Box>
    </Box>
  );
}

function ImportDetails() {
  const job = useRecordContext<ImportJob>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!job) return null;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {sourceOf(job.options)}
        </Typography>
        <StatusChip job={job} />
      </Stack>
      <Typography variant="body2">
        {translate('cal.imports.started_at', { date: formatUtc(job.started, locale) })}
        {job.finished ? ` · ${translate('cal.imports.finished_at', { date: formatUtc(job.finished, locale) })}` : ''}
      </Typography>
      <div aria-live="polite">
        <Progress job={job} />
      </div>
      {job.error && (
        <Alert severity="error" sx={{ overflowWrap: 'anywhere' }}>
          {job.error}
        </Alert>
      )}
      {job.report && <Report report={job.report} />}
    </Stack>
  );
}

/** One import: live progress while it runs, then its report. */
export default function ImportShow() {
  return (
    <Show
      queryOptions={{
        refetchInterval: (query) =>
          (query.state.data as ImportJob | undefined)?.status === 'running' ? POLL_MS : false,
      }}
    >
      <ImportDetails />
    </Show>
  );
}
