import { useState } from 'react';
import { Confirm, useLocaleState, useLogout, useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import { ADMIN_API, api } from '../api/http';
import { currentUser } from '../api/session';
import { formatUtc } from './dates';
import { useApiData } from './useApiData';

interface SessionInfo {
  id: number;
  created: string;
  last_seen: string;
  expires: string;
  ip: string;
  user_agent: string;
}

/** "Firefox 128 · Linux" from a user agent string: enough to recognise a device; the whole string is its title. */
export function browserOf(userAgent: string): string {
  const browsers: [string, RegExp][] = [
    ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
    ['Opera', /OPR\/(\d+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
    ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
    ['Safari', /Version\/(\d+).*Safari/],
  ];
  const systems: [string, RegExp][] = [
    ['Android', /Android/],
    ['iOS', /iPhone|iPad|iPod/],
    ['Windows', /Windows/],
    ['macOS', /Mac OS X|Macintosh/],
    ['Linux', /Linux|X11/],
  ];
  const browser = browsers.find(([, pattern]) => pattern.test(userAgent));
  const system = systems.find(([, pattern]) => pattern.test(userAgent));
  const name = browser ? `${browser[0]} ${userAgent.match(browser[1])![1]}` : userAgent.split(' ')[0] || '?';
  return system ? `${name} · ${system[0]}` : name;
}

/** A user's open sessions (when, where from, which browser) and "sign out everywhere". */
export function UserSessions({ userId, username }: { userId: number; username: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const [locale] = useLocaleState();
  const path = `${ADMIN_API}/users/${userId}/sessions`;
  const { data, loading, reload } = useApiData<SessionInfo[]>(path);
  const [confirming, setConfirming] = useState(false);

  const endAll = async () => {
    setConfirming(false);
    try {
      const { json } = await api<{ sessions: number }>(path, { method: 'DELETE' });
      notify('cal.users.sessions_ended', { type: 'info', messageArgs: { smart_count: json.sessions } });
      // Ending one's own sessions ends this one too: back to the sign-in screen.
      if (currentUser()?.id === userId) void logout();
      else reload();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <Card variant="outlined">
      <CardHeader title={translate('cal.users.sessions')} slotProps={{ title: { component: 'h2' } }} />
      <CardContent>
        {!loading && data?.length === 0 && <Typography>{translate('cal.users.no_sessions')}</Typography>}
        <List dense aria-label={translate('cal.users.sessions')}>
          {data?.map((session) => (
            <ListItem key={session.id} title={session.user_agent}>
              <ListItemText
                primary={`${browserOf(session.user_agent)} — ${session.ip}`}
                secondary={translate('cal.users.session_times', {
                  created: formatUtc(session.created, locale),
                  last_seen: formatUtc(session.last_seen, locale),
                })}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
      <CardActions>
        <Button
          color="error"
          sx={{ color: '#a50e0e' }}
          startIcon={<LogoutIcon />}
          onClick={() => setConfirming(true)}
          disabled={!data?.length}
        >
          {translate('cal.users.sign_out_everywhere')}
        </Button>
      </CardActions>
      <Confirm
        isOpen={confirming}
        title="cal.users.sign_out_everywhere"
        content="cal.users.sign_out_everywhere_confirm"
        translateOptions={{ name: username }}
        onConfirm={() => void endAll()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
