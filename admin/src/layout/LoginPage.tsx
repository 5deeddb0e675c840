import { useState, type FormEvent } from 'react';
import { Login, LocalesMenuButton, useLogin, useTranslate } from 'react-admin';
import { Alert, Box, Button, CircularProgress, TextField } from '@mui/material';

/**
 * The sign-in screen. react-admin's own marks both fields required, which puts " *" into their
 * accessible names; here they are exactly "Username" and "Password" (what people and the tests
 * look for), the button "Sign in", and a refusal is said once, beside the form, in the user's
 * language, without telling which of the two was wrong (the service does not say either).
 */
export function LoginPage() {
  const login = useLogin();
  const translate = useTranslate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!username || !password) {
      setError(translate('cal.signin.missing'));
      return;
    }
    setBusy(true);
    setError(null);
    login({ username, password }).catch((failure: { status?: number }) => {
      setBusy(false);
      setError(
        translate(
          failure?.status === 429
            ? 'cal.signin.throttled'
            : failure?.status === 401
              ? 'cal.signin.failed'
              : 'cal.signin.unavailable',
        ),
      );
    });
  };

  return (
    <Login>
      <Box
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, px: 2, pb: 2, minWidth: { xs: 260, sm: 300 } }}
      >
        <TextField
          name="username"
          label={translate('ra.auth.username')}
          autoComplete="username"
          autoFocus
          disabled={busy}
        />
        <TextField
          name="password"
          type="password"
          label={translate('ra.auth.password')}
          autoComplete="current-password"
          disabled={busy}
        />
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          startIcon={busy ? <CircularProgress size={18} /> : null}
        >
          {translate('ra.auth.sign_in')}
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <LocalesMenuButton />
        </Box>
      </Box>
    </Login>
  );
}
