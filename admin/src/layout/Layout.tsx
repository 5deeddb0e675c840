import type { ReactNode } from 'react';
import {
  AppBar,
  Layout as RaLayout,
  LoadingIndicator,
  LocalesMenuButton,
  Menu,
  TitlePortal,
  useGetList,
  useLocales,
  usePermissions,
  useTranslate,
} from 'react-admin';
import InboxIcon from '@mui/icons-material/Inbox';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import SettingsIcon from '@mui/icons-material/Settings';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { can } from '../api/permissions';
import type { Role } from '../api/session';
import { NamedProgress } from './NamedProgress';

/** "Pending submissions (N)": the queue of events from the public form, with how many wait (X-Cal-Total of one row). */
function PendingSubmissionsItem() {
  const translate = useTranslate();
  const { total } = useGetList('submissions', { pagination: { page: 1, perPage: 1 }, filter: { state: 'pending' } });
  const label = translate('cal.menu.submissions');
  return (
    <Menu.Item
      to="/submissions"
      primaryText={total ? `${label} (${total})` : label}
      leftIcon={<InboxIcon />}
      // The count must stay readable: the label wraps instead of ending in an ellipsis.
      sx={{ '& .MuiTypography-root': { whiteSpace: 'normal' } }}
    />
  );
}

/** The menu: the resources the role may open, the calendar beside the events, then settings and profile. */
function AdminMenu() {
  const translate = useTranslate();
  const { permissions } = usePermissions<Role>();
  return (
    <Menu>
      <Menu.ResourceItem name="events" />
      {can(permissions, 'edit_posts') && (
        <Menu.Item to="/calendar" primaryText={translate('cal.menu.calendar')} leftIcon={<CalendarMonthIcon />} />
      )}
      {can(permissions, 'edit_others_posts') && <PendingSubmissionsItem />}
      <Menu.ResourceItem name="venues" />
      <Menu.ResourceItem name="organizers" />
      <Menu.ResourceItem name="categories" />
      <Menu.ResourceItem name="tags" />
      <Menu.ResourceItem name="users" />
      <Menu.ResourceItem name="webhooks" />
      <Menu.ResourceItem name="imports" />
      {can(permissions, 'manage_options') && (
        <Menu.Item to="/settings" primaryText={translate('cal.menu.settings')} leftIcon={<SettingsIcon />} />
      )}
      <Menu.Item to="/profile" primaryText={translate('cal.menu.profile')} leftIcon={<AccountCircleIcon />} />
    </Menu>
  );
}

/** react-admin's toolbar: the language menu, the refresh button and its spinner (named: NamedProgress). */
function AdminToolbar() {
  const locales = useLocales();
  return (
    <>
      {locales.length > 1 ? <LocalesMenuButton /> : null}
      <LoadingIndicator />
    </>
  );
}

/** Each screen's title is the page's one level-one heading (react-admin's is a plain span). */
function AdminAppBar() {
  return (
    <AppBar toolbar={<AdminToolbar />}>
      <TitlePortal component="h1" />
    </AppBar>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <NamedProgress>
      <RaLayout menu={AdminMenu} appBar={AdminAppBar}>
        {children}
      </RaLayout>
    </NamedProgress>
  );
}
