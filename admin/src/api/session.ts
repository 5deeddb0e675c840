import { ADMIN_API, api, setNonce } from './http';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface SessionUser {
  id: number;
  username: string;
  email: string;
  role: Role;
}

interface SessionAnswer {
  user: SessionUser;
  nonce: string;
}

/** Who is signed in, once known; cleared on sign-out and on a 401 the session cannot explain. */
let current: SessionUser | null = null;
let pending: Promise<SessionUser | null> | null = null;

export function currentUser(): SessionUser | null {
  return current;
}

function remember(answer: SessionAnswer): SessionUser {
  setNonce(answer.nonce);
  current = answer.user;
  return answer.user;
}

export function forget(): void {
  setNonce(null);
  current = null;
  pending = null;
}

export async function signIn(username: string, password: string): Promise<SessionUser> {
  const { json } = await api<SessionAnswer>(`${ADMIN_API}/session`, {
    method: 'POST',
    body: { username, password },
  });
  return remember(json);
}

/** The session the browser's cookie belongs to, asked once per page load (concurrent callers share it). */
export function resumeSession(): Promise<SessionUser | null> {
  if (current) return Promise.resolve(current);
  pending ??= api<SessionAnswer>(`${ADMIN_API}/session`)
    .then(({ json }) => remember(json))
    .catch(() => {
      pending = null;
      return null;
    });
  return pending;
}

export async function signOut(everywhere = false): Promise<void> {
  try {
    await api(`${ADMIN_API}/session`, { method: 'DELETE', query: { everywhere: everywhere || undefined } });
  } finally {
    forget();
  }
}
