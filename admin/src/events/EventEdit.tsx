import { useState } from 'react';
import {
  Edit,
  useEditContext,
  useNotify,
  useRedirect,
  useRecordContext,
  useTranslate,
  type HttpError,
  type RaRecord,
} from 'react-admin';
import { Alert } from '@mui/material';
import type { FieldValues } from 'react-hook-form';
import { forgetVersion } from '../api/dataProvider';
import { EventForm } from './EventForm';
import { TranslationPanel } from './TranslationPanel';
import { ConflictDialog, ScopeDialog } from './editor/EditorDialogs';
import {
  isOccurrence,
  toForm,
  toWrite,
  type EditorRecord,
  type EventFormValues,
  type Scope,
} from './editor/event-shape';

function EventTitle() {
  const translate = useTranslate();
  const record = useRecordContext<EditorRecord>();
  return <>{translate('cal.editor.edit_title', { title: record?.title ?? '' })}</>;
}

function OccurrenceNote() {
  const translate = useTranslate();
  const record = useRecordContext<EditorRecord>();
  if (!isOccurrence(record)) return null;
  return (
    <Alert severity="info" sx={{ width: '100%', mb: 2, boxSizing: 'border-box' }}>
      {translate('cal.editor.scope.note')}
    </Alert>
  );
}

interface Pending {
  values: FieldValues;
  scope?: Scope;
}

/**
 * Saving: an occurrence asks first which events the change is for; a 412 (someone else saved
 * since this was read) opens a choice between reloading theirs and overwriting it knowingly,
 * never an overwrite by itself.
 */
function EventEditForm() {
  const { record, save, refetch } = useEditContext<EditorRecord>();
  const notify = useNotify();
  const redirect = useRedirect();
  const [askScope, setAskScope] = useState<FieldValues | null>(null);
  const [conflict, setConflict] = useState<Pending | null>(null);

  const send = (values: FieldValues, scope?: Scope) =>
    save?.(values, {
      transform: (data: Partial<EventFormValues>, options?: { previousData?: Partial<EventFormValues> }) =>
        toWrite(data, options?.previousData, scope),
      onSuccess: (data: RaRecord) => {
        notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
        // "This and following" answers the new series: edit it there, not under the occurrence's address.
        if (record && data?.id !== undefined && String(data.id) !== String(record.id))
          redirect('edit', 'events', data.id);
      },
      onError: (error: unknown) => {
        const status = (error as HttpError)?.status;
        if (status === 412) setConflict({ values, scope });
        else if (!(error as HttpError)?.body?.errors)
          notify((error as Error)?.message || 'ra.notification.http_error', { type: 'error' });
      },
    });

  const onSubmit = (values: FieldValues) => {
    if (isOccurrence(record)) {
      setAskScope(values);
      return undefined;
    }
    return send(values);
  };

  return (
    <>
      <EventForm
        onSubmit={onSubmit}
        deletable
        header={
          <>
            <TranslationPanel />
            <OccurrenceNote />
          </>
        }
      />
      <ScopeDialog
        open={askScope !== null}
        onCancel={() => setAskScope(null)}
        onChoose={(scope) => {
          const values = askScope;
          setAskScope(null);
          if (values) void send(values, scope);
        }}
      />
      <ConflictDialog
        open={conflict !== null}
        onCancel={() => setConflict(null)}
        onReload={() => {
          setConflict(null);
          void refetch();
        }}
        onOverwrite={() => {
          const pending = conflict;
          setConflict(null);
          if (!pending || !record) return;
          forgetVersion('events', record.id);
          void send(pending.values, pending.scope);
        }}
      />
    </>
  );
}

export default function EventEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      queryOptions={{ select: toForm }}
      redirect={false}
      title={<EventTitle />}
      sx={{ '& .RaEdit-main': { minWidth: 0 } }}
    >
      <EventEditForm />
    </Edit>
  );
}
