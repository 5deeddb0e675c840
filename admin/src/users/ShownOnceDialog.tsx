import { useState } from 'react';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';

/**
 * A secret the API answers once (an application password, a webhook's signing secret): shown in
 * a dialog with a copy button, and gone when the dialog closes; only its hash is kept.
 */
export function ShownOnceDialog({
  title,
  label,
  secret,
  onClose,
}: {
  title: string;
  label: string;
  secret: string | null;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // Without clipboard access (an insecure origin), the text stays selected for the user to copy.
      setCopied(false);
    }
  };
  return (
    <Dialog open={secret !== null} onClose={onClose} aria-labelledby="shown-once-title" fullWidth maxWidth="sm">
      <DialogTitle id="shown-once-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{translate('cal.secret.shown_once')}</DialogContentText>
        <TextField
          label={label}
          value={secret ?? ''}
          fullWidth
          slotProps={{ htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace' } } }}
          onFocus={(event) => event.target.select()}
          autoFocus
        />
        {copied && (
          <Alert severity="success" sx={{ mt: 2 }} role="status">
            {translate('cal.secret.copied')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {translate('cal.secret.copy')}
        </Button>
        <Button onClick={onClose} variant="contained">
          {translate('cal.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
