import { useState } from 'react';
import {
  Edit,
  useEditContext,
  useNotify,
  useRedirect,
  useRefresh,
  useDataProvider,
  useRecordContext,
  useTranslate,
  type HttpError,
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
  const refresh = useRefresh();
  const dataProvider = useDataProvider();
  const [askScope, setAskScope] = useState<FieldValues | null>(null);
  const [conflict, setConflict] = useState<Pending | null>(null);
  // Reloading discards what was typed: the form is built anew over the version read again.
  const [generation, setGeneration] = useState(0);

  const failed = (values: FieldValues, scope?: Scope) => (error: unknown) => {
    const status = (error as HttpError)?.status;
    if (status === 412) setConflict({ values, scope });
    // Also with field errors: after the scope question the save runs outside the form's submit.
    else notify((error as Error)?.message || 'ra.notification.http_error', { type: 'error' });
  };

  /**
   * "This and following" and "all" answer the series, another record than the occurrence: the
   * edit screen's own save would put it in the occurrence's place, so these go to the data
   * provider directly and the editor moves to the series.
   */
  const saveSeries = async (values: FieldValues, scope: Scope) => {
    if (!record) return undefined;
    try {
      const body = toWrite(values as Partial<EventFormValues>, record, scope);
      const { data } = await dataProvider.update('events', { id: record.id, data: body, previousData: record });
      notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
      refresh();
      redirect('edit', 'events', data.id);
      return undefined;
    } catch (error) {
      failed(values, scope)(error);
      return (error as HttpError)?.body?.errors as Record<string, string> | undefined;
    }
  };

  const send = (values: FieldValues, scope?: Scope) =>
    scope === 'following' || scope === 'all'
      ? saveSeries(values, scope)
      : save?.(values, {
          transform: (data: Partial<EventFormValues>, options?: { previousData?: Partial<EventFormValues> }) =>
            toWrite(data, options?.previousData, scope),
          onSuccess: () => notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } }),
          onError: failed(values, scope),
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
        key={generation}
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
          void refetch().then(() => setGeneration((n) => n + 1));
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
