import type { AuthProvider } from 'react-admin';
import { currentUser, forget, resumeSession, signIn, signOut } from './session';
import { mayAccess } from './permissions';

/** react-admin's sign-in over the session route: a cookie for the browser, a nonce for each request. */
export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    await signIn(username, password);
  },
  async logout() {
    if (currentUser()) await signOut();
    else forget();
  },
  async checkAuth() {
    if (!(await resumeSession())) throw new Error('ra.auth.auth_check_error');
  },
  /** A 401 means the session ended (expired, revoked elsewhere): sign in again. A 403 is a refusal, not a sign-out. */
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      forget();
      throw new Error('ra.notification.logged_out');
    }
  },
  async getIdentity() {
    const user = await resumeSession();
    if (!user) throw new Error('ra.auth.auth_check_error');
    return { id: user.id, fullName: user.username, role: user.role };
  },
  async getPermissions() {
    return (await resumeSession())?.role;
  },
  async canAccess({ resource, action }) {
    const user = await resumeSession();
    return mayAccess(user?.role, resource, action);
  },
};
