import { useMediaQuery, type Theme } from '@mui/material';
import Chip from '@mui/material/Chip';
import {
  CreateButton,
  Datagrid,
  FunctionField,
  List,
  ReferenceField,
  SimpleList,
  TextField,
  TopToolbar,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { formatUtc } from '../users/dates';
import { sourceOf, type ImportJob } from './importSource';

const COLORS = { running: 'info', done: 'success', failed: 'error' } as const;

export function StatusChip({ job }: { job: ImportJob }) {
  const translate = useTranslate();
  return <Chip size="small" color={COLORS[job.status]} label={translate(`cal.imports.status.${job.status}`)} />;
}

/** The last twenty imports, newest first: where from, how they ended, who started them. */
export default function ImportList() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  return (
    <List
      sort={{ field: 'id', order: 'DESC' }}
      pagination={false}
      actions={
        <TopToolbar>
          <CreateButton label="cal.imports.new" />
        </TopToolbar>
      }
    >
      {small ? (
        <SimpleList<ImportJob>
          primaryText={(job) => sourceOf(job.options)}
          secondaryText={(job) => translate(`cal.imports.status.${job.status}`)}
          tertiaryText={(job) => formatUtc(job.started, locale)}
          linkType="show"
          sx={{ '& .MuiListItemText-primary': { overflowWrap: 'anywhere' } }}
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="id" />
          <FunctionField<ImportJob> label="resources.imports.fields.source" render={(job) => sourceOf(job.options)} />
          <FunctionField<ImportJob> source="status" render={(job) => <StatusChip job={job} />} />
          <FunctionField<ImportJob> source="started" render={(job) => formatUtc(job.started, locale)} />
          <FunctionField<ImportJob> source="finished" render={(job) => formatUtc(job.finished, locale)} />
          <ReferenceField source="user_id" reference="users" link={false}>
            <TextField source="username" />
          </ReferenceField>
        </Datagrid>
      )}
    </List>
  );
}
