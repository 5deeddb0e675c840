import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Scope } from './event-shape';

/** Saving an occurrence of a series: which events the change is for (the API's `scope`). */
export function ScopeDialog({
  open,
  onChoose,
  onCancel,
}: {
  open: boolean;
  onChoose: (scope: Scope) => void;
  onCancel: () => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="event-scope-title" aria-describedby="event-scope-text">
      <DialogTitle id="event-scope-title">{translate('cal.editor.scope.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="event-scope-text">{translate('cal.editor.scope.text')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
        <Button onClick={() => onChoose('this')} variant="contained" autoFocus>
          {translate('cal.editor.scope.this')}
        </Button>
        <Button onClick={() => onChoose('following')} variant="outlined">
          {translate('cal.editor.scope.following')}
        </Button>
        <Button onClick={() => onChoose('all')} variant="outlined">
          {translate('cal.editor.scope.all')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Someone else saved the event since it was read (412): reload theirs, or overwrite it knowingly. */
export function ConflictDialog({
  open,
  onReload,
  onOverwrite,
  onCancel,
}: {
  open: boolean;
  onReload: () => void;
  onOverwrite: () => void;
  onCancel: () => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      aria-labelledby="event-conflict-title"
      aria-describedby="event-conflict-text"
    >
      <DialogTitle id="event-conflict-title">{translate('cal.editor.conflict.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="event-conflict-text">{translate('cal.editor.conflict.text')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
        <Button onClick={onReload} variant="contained" autoFocus>
          {translate('cal.editor.conflict.reload')}
        </Button>
        <Button onClick={onOverwrite} color="warning">
          {translate('cal.editor.conflict.overwrite')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
